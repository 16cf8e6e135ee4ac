import { Alert } from "@mantine/core";
import type { ReactNode } from "react";
import { useMe } from "@/features/auth/api/get-me";

/** The administration pages: only for admins (the server refuses everyone else anyway). */
export function AdminsOnly({ children }: { children: (meId: number) => ReactNode }) {
  const me = useMe();
  if (!me.data) return null;
  if (!me.data.is_admin) {
    return (
      <Alert color="yellow" title="Admins only">
        Only a global admin manages users and teams. Ask one if you need an account or a team
        changed.
      </Alert>
    );
  }
  return children(me.data.id);
}
