import { Anchor, Button, Table, Text } from "@mantine/core";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { ListTable } from "@/components/list-table";
import { askedBy, timeLeft, whatRunsNext } from "@/features/workflows/lib/inbox";
import { formatDateTime } from "@/lib/format";
import { paths } from "@/lib/paths";

type Waiting = Schemas["WaitingApproval"];

/** Approvals waiting for the user: what is asked, what runs next, who asked, and a link to
 * decide on the workflow run's page (its approval panel). */
export function ApprovalsTable({ items, now }: { items: Waiting[]; now: number }) {
  return (
    <ListTable
      label="Approvals waiting for you"
      empty="No approval waits for you."
      columns={[
        { title: "Approval" },
        { title: "Then runs", visibleFrom: "sm" },
        { title: "Asked" },
        {},
      ]}
      items={items}
      rowKey={(item) => item.id}
      row={(item) => {
        const link = paths.workflowRun(item.project_id, item.workflow_run_id);
        const left = timeLeft(item, now);
        return (
          <>
            <Table.Td>
              <Text size="sm" fw={500}>
                {item.name || item.key}
              </Text>
              <Text size="xs" c="dimmed">
                {item.project_name} ·{" "}
                <Anchor component={Link} to={link} size="xs">
                  {item.workflow_name} #{item.workflow_run_id}
                </Anchor>
              </Text>
              <Text size="xs" c="dimmed" hiddenFrom="sm">
                then {whatRunsNext(item)}
              </Text>
            </Table.Td>
            <Table.Td visibleFrom="sm">
              <Text size="sm">{whatRunsNext(item)}</Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">by {askedBy(item)}</Text>
              <Text size="xs" c="dimmed">
                {item.asked_at ? formatDateTime(item.asked_at) : ""}
                {left ? ` · ${left}` : ""}
              </Text>
            </Table.Td>
            <Table.Td>
              <Button
                component={Link}
                to={link}
                size="xs"
                variant="light"
                aria-label={`Decide ${item.name || item.key} of ${item.workflow_name} #${item.workflow_run_id}`}
              >
                Decide
              </Button>
            </Table.Td>
          </>
        );
      }}
    />
  );
}
