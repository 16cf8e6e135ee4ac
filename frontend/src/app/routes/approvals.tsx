import { Alert, Center, Loader, Stack, Text, Title } from "@mantine/core";
import { WaitingPlans } from "@/features/plans/components/waiting-plans";
import { useWaitingApprovals } from "@/features/workflows/api/get-approvals";
import { ApprovalsTable } from "@/features/workflows/components/approvals-table";
import { useNow } from "@/hooks/use-now";
import { plural } from "@/lib/format";

/** The approvals inbox: every approval waiting for a decision the user may give. */
export function Component() {
  const approvals = useWaitingApprovals(100);
  const data = approvals.data;
  const now = useNow(1000, data?.items.some((i) => i.deadline_at) ?? false);
  return (
    <Stack>
      <div>
        <Title order={2}>Approvals</Title>
        <Text c="dimmed" size="sm">
          Workflow approvals and plans waiting for a decision you may give, the longest waiting
          first
        </Text>
      </div>
      {approvals.isError && !data && (
        <Alert color="red" title="Could not load the approvals">
          {approvals.error.message}
        </Alert>
      )}
      {!data && approvals.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading the approvals" />
        </Center>
      )}
      {data && <ApprovalsTable items={data.items} now={now} />}
      {data && data.total > data.items.length && (
        <Text size="sm" c="dimmed">
          Showing the first {data.items.length} of {plural(data.total, "approval")}.
        </Text>
      )}
      <WaitingPlans />
    </Stack>
  );
}
