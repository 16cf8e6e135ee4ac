import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { meQuery } from "@/features/auth/api/get-me";

export type TotpEnrollment = Schemas["TotpEnrollment"];

/**
 * Your own two-factor authentication (TOTP). Turning it on takes two requests: the password
 * starts an enrollment (the secret, to scan), a code from the app confirms it (the recovery
 * codes, shown once).
 */
export function useStartTotp() {
  return useMutation({
    mutationFn: (body: Schemas["TotpStart"]) => unwrap(api.POST("/api/v1/users/me/totp", { body })),
  });
}

export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas["TotpConfirm"]) =>
      unwrap(api.POST("/api/v1/users/me/totp/confirm", { body })),
    // not awaited: the recovery codes show at once, the status after them
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
  });
}

/** Off again, given the password and a code (or a recovery code). */
export function useDisableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas["TotpDisable"]) =>
      unwrap(api.DELETE("/api/v1/users/me/totp", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
  });
}
