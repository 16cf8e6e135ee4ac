import {
  Alert,
  Anchor,
  Card,
  Center,
  Group,
  Loader,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { isApiError } from "@/api/errors";
import { useFreezesNow } from "@/api/queries/freezes";
import { FreezeAlert } from "@/components/freeze-alert";
import { browserTimeZone, useDashboard } from "@/features/dashboard/api/get-dashboard";
import { ActiveRunsTable } from "@/features/dashboard/components/active-runs-table";
import { FailingTemplatesTable } from "@/features/dashboard/components/failing-templates-table";
import { RunsPerDayChart } from "@/features/dashboard/components/runs-per-day-chart";
import { Totals } from "@/features/dashboard/components/totals";
import { useWaitingApprovals } from "@/features/workflows/api/get-approvals";
import { ApprovalsTable } from "@/features/workflows/components/approvals-table";
import { useNow } from "@/hooks/use-now";
import { paths } from "@/lib/paths";

const WINDOWS = ["7", "14", "30", "90"];

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder radius="md" component="section" aria-label={title}>
      <Title order={3} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** The first screen: runs per day, failing templates, what runs and what waits (and why). */
export function Component() {
  const [search, setSearch] = useSearchParams();
  const days = WINDOWS.includes(search.get("days") ?? "") ? Number(search.get("days")) : 14;
  // a zone the server does not know (an old browser's alias) falls back to UTC
  const [zone, setZone] = useState(browserTimeZone);
  const dashboard = useDashboard(days, zone);
  const refused = isApiError(dashboard.error) && dashboard.error.status === 422;
  if (refused && zone !== "UTC") setZone("UTC");
  const data = dashboard.data;
  const approvals = useWaitingApprovals(5).data;
  const freezes = useFreezesNow().data ?? [];
  const now = useNow(1000, (data?.running.length ?? 0) > 0);

  return (
    <Stack>
      <Group justify="space-between" align="end">
        <div>
          <Title order={2}>Dashboard</Title>
          <Text c="dimmed" size="sm">
            The projects you can see · days in {zone} · refreshed every 10 s
          </Text>
        </div>
        <SegmentedControl
          aria-label="Days shown"
          value={String(days)}
          onChange={(value) => setSearch({ days: value }, { replace: true })}
          data={WINDOWS.map((w) => ({ value: w, label: `${w} d` }))}
        />
      </Group>
      {freezes.map((standing) => (
        <FreezeAlert key={standing.window_id} standing={standing} active={standing.active} />
      ))}
      {dashboard.isError && !data && (
        <Alert color="red" title="Could not load the dashboard">
          {dashboard.error.message}
        </Alert>
      )}
      {!data && dashboard.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading the dashboard" />
        </Center>
      )}
      {approvals && approvals.total > 0 && (
        <Section title="Waiting for your approval">
          <ApprovalsTable items={approvals.items} now={now} />
          {approvals.total > approvals.items.length && (
            <Anchor component={Link} to={paths.approvals()} size="sm" mt="xs">
              All {approvals.total} approvals
            </Anchor>
          )}
        </Section>
      )}
      {data && (
        <>
          <Totals totals={data.totals} days={data.days} />
          <Section title="Runs per day">
            {data.totals.runs === 0 ? (
              <Text c="dimmed">No runs in the last {data.days} days.</Text>
            ) : (
              <RunsPerDayChart days={data.per_day} byStatus={data.totals.by_status} />
            )}
          </Section>
          <Section title="Failing templates">
            <FailingTemplatesTable items={data.failing_templates} />
          </Section>
          <Section title="Running and queued">
            <ActiveRunsTable running={data.running} queued={data.queued} now={now} />
            {data.totals.running + data.totals.queued >
              data.running.length + data.queued.length && (
              <Text size="sm" c="dimmed" mt="xs">
                Showing the first {data.running.length} running and {data.queued.length} queued of{" "}
                {data.totals.running} and {data.totals.queued}.
              </Text>
            )}
          </Section>
        </>
      )}
    </Stack>
  );
}
