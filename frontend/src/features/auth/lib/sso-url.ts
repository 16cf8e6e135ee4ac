/**
 * Where the single sign-on button goes: the server's OIDC login, with `next` when it is a
 * path of this console (the server checks it again; anything else lands on the home page).
 */
export function ssoUrl(loginUrl: string, next: string | null): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) {
    return loginUrl;
  }
  return `${loginUrl}?${new URLSearchParams({ next }).toString()}`;
}
