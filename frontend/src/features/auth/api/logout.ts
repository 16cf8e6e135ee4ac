import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { setCsrfToken } from "@/api/csrf";
import { providerLogout } from "@/features/auth/lib/provider-logout";

/** The key of the sign-out while it is under way: a 401 then is the sign-out's own doing, not
 * a session lost (the app's error handler does not send the page to "sign in again"). */
export const LOGOUT_KEY = ["logout"];

/** Sign out; resolves to the OpenID provider's logout URL to go on to (single sign-on), or
 * null. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: LOGOUT_KEY,
    // what is still being fetched would come back 401 once the session ends
    onMutate: () => queryClient.cancelQueries(),
    mutationFn: async () => providerLogout(await unwrap(api.POST("/api/v1/auth/logout"))),
    // signed out locally even if the server call failed (expired session, offline)
    onSettled: () => {
      setCsrfToken(null);
      queryClient.clear();
    },
  });
}
