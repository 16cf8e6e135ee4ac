import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { setCsrfToken } from "@/api/csrf";
import { providerLogout } from "@/features/auth/lib/provider-logout";

/** Sign out; resolves to the OpenID provider's logout URL to go on to (single sign-on), or
 * null. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => providerLogout(await unwrap(api.POST("/api/v1/auth/logout"))),
    // signed out locally even if the server call failed (expired session, offline)
    onSettled: () => {
      setCsrfToken(null);
      queryClient.clear();
    },
  });
}
