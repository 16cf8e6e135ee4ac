import type { Schemas } from "@/api/client";

type ActiveFreezes = Schemas["ActiveFreezes"];

/** Whether a launch or relaunch meeting `freezes` asks for an override's reason: during a
 * freeze, when the caller may override it (`freeze:override`); never for a plan, whose body
 * takes no reason. */
export function overridesFreeze(freezes: ActiveFreezes | undefined, plan: boolean): boolean {
  return !plan && !!freezes?.active && freezes.can_override;
}

/** The launch or relaunch body, with the override's reason when `overriding` (the server
 * requires it during a freeze, and audits and notifies it). */
export function withFreezeReason<B extends object>(
  body: B,
  overriding: boolean,
  reason: string,
): B & { freeze_override_reason?: string } {
  return overriding ? { ...body, freeze_override_reason: reason } : body;
}
