import { Anchor, Stack, Table, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { QueryState } from "@/components/query-state";
import { useWaitingPlans } from "@/features/plans/api/plans";
import { formatDateTime } from "@/lib/format";
import { paths } from "@/lib/paths";

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
            <Table.ScrollContainer minWidth={0}>
              <Table aria-label="Plans waiting for approval" verticalSpacing="xs" fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Plan</Table.Th>
                    <Table.Th>Would change</Table.Th>
                    <Table.Th visibleFrom="sm">Asked by</Table.Th>
                    <Table.Th visibleFrom="md">Expires</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((plan) => (
                    <Table.Tr key={plan.run_id}>
                      <Table.Td>
                        <Anchor component={Link} to={paths.run(plan.project_id, plan.run_id)}>
                          #{plan.run_id} {plan.template_name}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {plan.project_name}
                        </Text>
                      </Table.Td>
                      <Table.Td>{plan.summary}</Table.Td>
                      <Table.Td visibleFrom="sm">
                        {plan.launched_by || "—"}
                        {plan.asked_at && (
                          <Text size="xs" c="dimmed">
                            {formatDateTime(plan.asked_at)}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td visibleFrom="md">{formatDateTime(plan.expires_at)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </QueryState>
    </Stack>
  );
}
