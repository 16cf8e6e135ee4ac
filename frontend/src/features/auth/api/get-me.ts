import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { setCsrfToken } from "@/api/csrf";

/**
 * The signed-in user, from the browser session behind the cookie. The same answer carries the
 * session's CSRF token, so a new tab or a reload can change things without signing in again.
 * No session: a 401, and the app sends the reader to the login page.
 */
export const meQuery = queryOptions({
  queryKey: ["auth", "me"],
  queryFn: async ({ signal }) => {
    const session = await unwrap(api.GET("/api/v1/auth/session", { signal }));
    setCsrfToken(session.csrf_token);
    return session.user;
  },
  staleTime: 5 * 60_000,
});

export function useMe() {
  return useQuery(meQuery);
}
