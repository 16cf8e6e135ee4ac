/**
 * The CSRF token of this tab's session, returned by `POST /auth/login` and sent back as
 * `X-CSRF-Token` on every state-changing request. sessionStorage keeps it across a reload of
 * the tab; a new tab has none and signs in again (the cookie alone can't change anything).
 */
const STORAGE_KEY = "steward.csrf";

export function getCsrfToken(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

export function setCsrfToken(token: string | null): void {
  if (token === null) sessionStorage.removeItem(STORAGE_KEY);
  else sessionStorage.setItem(STORAGE_KEY, token);
}
