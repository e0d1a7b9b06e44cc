// Signing in to the console over HTTP as a browser does, and reading its pages with the cookie.
import { OPERATOR_TOKEN } from './console-host.ts';

/** Hostile text as users and models write it: markup, a terminal escape, a bell, quotes, an override. */
export const HOSTILE_TEXT =
  '<script>alert(1)</script> \u001b[31mred\u001b[0m "quoted" \'single\' \u0007 \u202eevil';

/** How {@link HOSTILE_TEXT} shows on a page: as its characters, escaped. */
export const HOSTILE_SHOWN =
  '&lt;script&gt;alert(1)&lt;/script&gt; \\x1b[31mred\\x1b[0m &quot;quoted&quot; &#39;single&#39; \\x07 \\u202eevil';

/** Signs in as the operator and gives the session cookie. */
export async function operatorCookie(consoleUrl: string): Promise<string> {
  const response = await fetch(`${consoleUrl}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: new URL(consoleUrl).origin },
    body: new URLSearchParams({ token: OPERATOR_TOKEN }).toString(),
  });
  const [cookie] = response.headers.getSetCookie();
  return cookie?.split(';')[0] ?? '';
}

/** A page of the console: its status and markup, signed in with `cookie` (or not at all). */
export async function getPage(
  url: string,
  cookie?: string,
): Promise<{ status: number; text: string; location: string | null }> {
  const response = await fetch(url, {
    redirect: 'manual',
    ...(cookie ? { headers: { Cookie: cookie } } : {}),
  });
  return { status: response.status, text: await response.text(), location: response.headers.get('location') };
}

/** Asserts nothing of {@link HOSTILE_TEXT} reached the page as markup or as a raw control character. */
export function inertProblems(page: string): string[] {
  return ['<script>alert', '\u001b', '\u0007', '\u202e', '"quoted"'].filter((banned) =>
    page.includes(banned),
  );
}
