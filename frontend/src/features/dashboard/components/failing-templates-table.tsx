import { Anchor, Table, Text } from "@mantine/core";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { ListTable } from "@/components/list-table";
import { RunStatusBadge } from "@/components/run-status-badge";
import { runStatusLabel } from "@/lib/run-status";
import { formatDateTime } from "@/lib/format";
import { paths } from "@/lib/paths";

/** Templates whose latest finished run failed: how often, and the run that failed last. */
export function FailingTemplatesTable({ items }: { items: Schemas["FailingTemplate"][] }) {
  return (
    <ListTable
      label="Failing templates"
      empty="No failing templates: every template's latest run went well."
      columns={[{ title: "Template" }, { title: "Failures" }, { title: "Last failure" }]}
      items={items}
      rowKey={(t) => t.template_id}
      row={(t) => (
        <>
          <Table.Td>
            <Anchor component={Link} to={paths.template(t.project_id, t.template_id)}>
              {t.template_name}
            </Anchor>
            <Text size="xs">
              <Anchor component={Link} to={paths.project(t.project_id)} c="dimmed" inherit>
                {t.project_name}
              </Anchor>
            </Text>
          </Table.Td>
          <Table.Td>
            {t.failures} of {t.finished} ({Math.round(t.failure_rate * 100)}%)
          </Table.Td>
          <Table.Td>
            <Anchor
              component={Link}
              to={paths.run(t.project_id, t.last_failed_run_id)}
              aria-label={`Run #${t.last_failed_run_id}, ${runStatusLabel(t.last_status)}`}
            >
              <RunStatusBadge status={t.last_status} mr={6} />#{t.last_failed_run_id}
            </Anchor>
            <Text size="xs" c="dimmed">
              {formatDateTime(t.last_failure_at)}
            </Text>
          </Table.Td>
        </>
      )}
    />
  );
}
