import { Badge, Tooltip } from "@mantine/core";
import type { Schemas } from "@/api/client";

type Schedule = Schemas["ScheduleRead"];

/** On, off (by a person), or disabled by Steward (with the reason), or finished. */
export function ScheduleState({ schedule }: { schedule: Schedule }) {
  if (schedule.disabled_reason) {
    return (
      <Tooltip label={schedule.disabled_reason} multiline w={280}>
        <Badge color="red" variant="light">
          Disabled by Steward
        </Badge>
      </Tooltip>
    );
  }
  if (!schedule.enabled) return <Badge color="gray">Off</Badge>;
  if (schedule.next_fire_at === null) return <Badge color="gray">Finished</Badge>;
  return <Badge color="green">On</Badge>;
}
