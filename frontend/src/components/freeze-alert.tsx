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
  // a window with labels freezes only the templates carrying one of them
  const labels = standing.labels.join(", ");
  const runs = labels ? `No run of a template labelled ${labels}` : "No run";
  const launches = labels ? `launches of templates labelled ${labels}` : "launches";
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
          ? `${runs} may start in ${where} until ${standing.shown_end} (the window's own clock).`
          : `Until ${formatDateTime(standing.ends_at)}, ${launches} in ${where} will be refused.`}
      </Text>
      {children}
    </Alert>
  );
}
