/** Where the browser goes after signing out: the OpenID provider's logout, when the server
 * answers one (a single sign-on session; the provider sends the browser back to the login
 * page), else null (the console's own login page). Only an absolute http(s) URL is followed. */
export function providerLogout(answer: unknown): string | null {
  if (typeof answer !== "object" || answer === null || !("redirect_to" in answer)) return null;
  const target = (answer as { redirect_to: unknown }).redirect_to;
  if (typeof target !== "string") return null;
  try {
    const url = new URL(target);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}
