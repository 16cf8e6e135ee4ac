import { Alert } from "@mantine/core";
import type { ReactNode } from "react";
import { useMe } from "@/features/auth/api/get-me";

/** The administration pages: only for admins (the server refuses everyone else anyway). */
const USERS_AND_TEAMS =
  "Only a global admin manages users and teams. Ask one if you need an account or a team changed.";

export function AdminsOnly({
  children,
  refusal = USERS_AND_TEAMS,
}: {
  children: (meId: number) => ReactNode;
  /** what a non-admin reads instead */
  refusal?: string;
}) {
  const me = useMe();
  if (!me.data) return null;
  if (!me.data.is_admin) {
    return (
      <Alert color="yellow" title="Admins only">
        {refusal}
      </Alert>
    );
  }
  return children(me.data.id);
}
