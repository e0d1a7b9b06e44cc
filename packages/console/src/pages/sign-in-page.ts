import { html } from '../html/html.ts';
import { notice, page } from './layout.ts';

/** The sign-in form: an operator's token (the admin API's), never a user's. */
export function signInPage({ base, problem }: { base: string; problem?: string | undefined }): string {
  return page({
    base,
    title: 'Sign in',
    body: html`${notice('problem', problem)}
<form method="post" action="${base}/sign-in" class="sign-in">
  <label for="token">Operator token</label>
  <input id="token" name="token" type="password" autocomplete="off" required>
  <p class="hint">The token of the admin API (<code>switchboard approvals</code> uses the same), or your
  identity provider's access token for an operator. A user's token does not sign in.</p>
  <button type="submit">Sign in</button>
</form>`,
  });
}
