import type { Schemas } from "@/api/client";

type ActiveFreezes = Schemas["ActiveFreezes"];

/** A project's freeze window as a launch meets it (GET …/templates/{id}/freezes). */
export function makeStanding(active: boolean): Schemas["FreezeStanding"] {
  return {
    window_id: 1,
    scope: "project",
    project_id: 1,
    name: "Change freeze",
    labels: [],
    starts_at: "2026-12-20T00:00:00Z",
    ends_at: "2027-01-03T00:00:00Z",
    shown_end: "2027-01-03 00:00 UTC",
    active,
  };
}

/** During the freeze, to a caller who may override it or not. */
export const frozen = (can_override: boolean): ActiveFreezes => ({
  active: makeStanding(true),
  coming: null,
  can_override,
});

/** Before it, within the days the dialog warns of. */
export const coming = (): ActiveFreezes => ({
  active: null,
  coming: makeStanding(false),
  can_override: true,
});
