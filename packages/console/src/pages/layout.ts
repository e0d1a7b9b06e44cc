import { html, type Placed, type SafeHtml } from '../html/html.ts';

/** What every signed-in page shows around its content. */
export interface PageFrame {
  /** The console's base path (`/console`), for links. */
  base: string;
  title: string;
  /** The operator signed in, shown with the sign-out button; absent on the sign-in page. */
  operator?: { id: string; csrf: string } | undefined;
  body: Placed;
}

/** A whole page: no inline script or style anywhere (the CSP allows neither), one stylesheet of ours. */
export function page({ base, title, operator, body }: PageFrame): string {
  const nav = operator
    ? html`<nav>
  <a href="${base}/">Waiting approvals</a>
  <a href="${base}/history">Decisions</a>
  <a href="${base}/requests">Requests</a>
  <a href="${base}/team">Team</a>
  <a href="${base}/costs">Costs</a>
  <a href="${base}/shadow">Shadow</a>
  <a href="${base}/evals">Evals</a>
  <form method="post" action="${base}/sign-out" class="sign-out">
    <input type="hidden" name="csrf" value="${operator.csrf}">
    <span class="who">Signed in as <b>${operator.id}</b></span>
    <button type="submit">Sign out</button>
  </form>
</nav>`
    : '';
  const markup: SafeHtml = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Switchboard console</title>
<link rel="stylesheet" href="${base}/assets/console.css">
</head>
<body>
<header><span class="brand">Switchboard console</span>${nav}</header>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`;
  return markup.markup;
}

/** A notice above a page's content: what the last action did, or why it did nothing. */
export function notice(kind: 'ok' | 'problem', text: string | undefined): SafeHtml | '' {
  return text ? html`<p class="notice ${kind}" role="status">${text}</p>` : '';
}
