import { Stack, Text, Title } from "@mantine/core";
import { AdminsOnly } from "@/app/routes/admin/admins-only";
import { AuditPanel } from "@/features/audit/components/audit-panel";
import { StreamStatus } from "@/features/audit/components/stream-status";

/** The whole instance's audit trail: sign-ins and failed sign-ins, users, teams, tokens, and
 * every project's records, with the project page's filters and exports. */
export function Component() {
  return (
    <Stack>
      <div>
        <Title order={2}>Audit</Title>
        <Text c="dimmed" size="sm">
          Every record of this Steward: sign-ins, failed sign-ins, users, teams, tokens and every
          project
        </Text>
      </div>
      <AdminsOnly refusal="Only a global admin reads the whole instance's audit trail; a project's owners read the project's own on its Audit tab.">
        {() => (
          <>
            <StreamStatus />
            <AuditPanel isAdmin />
          </>
        )}
      </AdminsOnly>
    </Stack>
  );
}
