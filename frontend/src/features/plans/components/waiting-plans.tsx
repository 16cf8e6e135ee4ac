import { Anchor, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { type Column, ColumnsTable } from "@/components/columns-table";
import { QueryState } from "@/components/query-state";
import { useWaitingPlans } from "@/features/plans/api/plans";
import { formatDateTime } from "@/lib/format";
import { paths } from "@/lib/paths";

type Plan = Schemas["WaitingPlan"];

const COLUMNS: readonly Column<Plan>[] = [
  {
    key: "plan",
    header: "Plan",
    cell: (plan) => (
      <>
        <Anchor component={Link} to={paths.run(plan.project_id, plan.run_id)}>
          #{plan.run_id} {plan.template_name}
        </Anchor>
        <Text size="xs" c="dimmed">
          {plan.project_name}
        </Text>
      </>
    ),
  },
  { key: "summary", header: "Would change", cell: (plan) => plan.summary },
  {
    key: "asked",
    header: "Asked by",
    visibleFrom: "sm",
    cell: (plan) => (
      <>
        {plan.launched_by || "—"}
        {plan.asked_at && (
          <Text size="xs" c="dimmed">
            {formatDateTime(plan.asked_at)}
          </Text>
        )}
      </>
    ),
  },
  {
    key: "expires",
    header: "Expires",
    visibleFrom: "md",
    cell: (plan) => formatDateTime(plan.expires_at),
  },
];

/** Plans waiting for an approval the user may give (not their own), the longest waiting
 * first; each opens the plan's page, where it is approved or rejected. */
export function WaitingPlans() {
  const plans = useWaitingPlans(100);
  return (
    <Stack gap="xs">
      <Title order={3}>Plans</Title>
      <QueryState query={plans} loading="Loading the plans" failed="Could not load the plans" small>
        {(data) =>
          data.items.length === 0 ? (
            <Text c="dimmed" size="sm">
              No plan waits for your approval.
            </Text>
          ) : (
            <ColumnsTable
              label="Plans waiting for approval"
              columns={COLUMNS}
              rows={data.items}
              rowKey={(plan) => plan.run_id}
              compact
            />
          )
        }
      </QueryState>
    </Stack>
  );
}
