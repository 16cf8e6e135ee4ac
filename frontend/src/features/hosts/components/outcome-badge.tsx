import { Badge } from "@mantine/core";
import { OUTCOMES, type Outcome } from "@/features/hosts/lib/outcome";

export function OutcomeBadge({ outcome }: { outcome: Outcome }) {
  const shown = OUTCOMES[outcome];
  return (
    <Badge color={shown.color} variant="light">
      {shown.label}
    </Badge>
  );
}
