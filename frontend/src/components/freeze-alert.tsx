import { Alert, Text } from "@mantine/core";
import type { FreezeStanding } from "@/api/queries/freezes";
import { formatDateTime } from "@/lib/format";

/** A freeze window holding now (red) or coming (yellow), with its name and when. */
export function FreezeAlert({
  standing,
  active,
  children,
}: {
  standing: FreezeStanding;
  active: boolean;
  children?: React.ReactNode;
}) {
  const where = standing.scope === "instance" ? "every project" : "this project";
  return (
    <Alert
      color={active ? "red" : "yellow"}
      title={
        active
          ? `Frozen: “${standing.name}” until ${formatDateTime(standing.ends_at)}`
          : `Freeze “${standing.name}” starts ${formatDateTime(standing.starts_at)}`
      }
      role={active ? "alert" : "status"}
    >
      <Text size="sm">
        {active
          ? `No run may start in ${where} until ${standing.shown_end} (the window's own clock).`
          : `Until ${formatDateTime(standing.ends_at)}, launches in ${where} will be refused.`}
      </Text>
      {children}
    </Alert>
  );
}
