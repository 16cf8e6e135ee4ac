import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { meQuery } from "@/features/auth/api/get-me";

export type Token = Schemas["TokenRead"];
export type TokenCreated = Schemas["TokenCreated"];
export type TokenCreate = Schemas["TokenCreate"];
export type WebSession = Schemas["SessionRead"];

const tokensKey = ["auth", "tokens"] as const;
const sessionsKey = ["auth", "sessions"] as const;

/** Your own name and e-mail address. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas["ProfileUpdate"]) => unwrap(api.PATCH("/api/v1/users/me", { body })),
    onSuccess: (user) => queryClient.setQueryData(meQuery.queryKey, user),
  });
}

/** Your own password, given the current one; your other browser sessions end. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas["PasswordChange"]) =>
      unwrap(api.POST("/api/v1/users/me/password", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useTokens() {
  return useQuery({
    queryKey: tokensKey,
    queryFn: ({ signal }) => unwrap(api.GET("/api/v1/users/me/tokens", { signal })),
  });
}

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TokenCreate) => unwrap(api.POST("/api/v1/users/me/tokens", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: number) =>
      unwrap(
        api.DELETE("/api/v1/users/me/tokens/{token_id}", {
          params: { path: { token_id: tokenId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}

export function useSessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: ({ signal }) => unwrap(api.GET("/api/v1/users/me/sessions", { signal })),
  });
}

/** Sign one of your browser sessions out. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: number) =>
      unwrap(
        api.DELETE("/api/v1/users/me/sessions/{session_id}", {
          params: { path: { session_id: sessionId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}
