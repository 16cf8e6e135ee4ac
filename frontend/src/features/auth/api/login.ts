import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { setCsrfToken } from "@/api/csrf";
import { meQuery } from "@/features/auth/api/get-me";

export type LoginInput = Schemas["LoginRequest"];

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginInput) => unwrap(api.POST("/api/v1/auth/login", { body })),
    onSuccess: (session) => {
      setCsrfToken(session.csrf_token);
      queryClient.setQueryData(meQuery.queryKey, session.user);
    },
  });
}
