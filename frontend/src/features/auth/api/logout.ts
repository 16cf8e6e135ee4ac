import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { setCsrfToken } from "@/api/csrf";

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/auth/logout")),
    // signed out locally even if the server call failed (expired session, offline)
    onSettled: () => {
      setCsrfToken(null);
      queryClient.clear();
    },
  });
}
