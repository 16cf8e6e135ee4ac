import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";

export type User = Schemas["UserRead"];

const usersKey = ["users"] as const;

/** Every user, by username (admins), a page at a time; `q` matches a part of the name. */
export function useUsers(q: string, limit: number, offset: number) {
  return useQuery({
    queryKey: [...usersKey, "list", { q, limit, offset }],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/users", {
          params: { query: { q: q || undefined, limit, offset } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas["UserCreate"]) => unwrap(api.POST("/api/v1/users", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
}

/** Admin changes: name, e-mail, admin, active (disabling ends the user's sessions and tokens). */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: Schemas["UserUpdate"] & { id: number }) =>
      unwrap(api.PATCH("/api/v1/users/{user_id}", { params: { path: { user_id: id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: ({ id, password }: { id: number; password: string }) =>
      unwrap(
        api.POST("/api/v1/users/{user_id}/password", {
          params: { path: { user_id: id } },
          body: { password },
        }),
      ),
  });
}

/** Turn a user's two-factor authentication off (a lost phone): the password alone signs in. */
export function useResetTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE("/api/v1/users/{user_id}/totp", { params: { path: { user_id: id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
}
