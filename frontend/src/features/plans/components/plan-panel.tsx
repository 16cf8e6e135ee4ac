import { Alert, Anchor, Badge, Button, Group, Stack, Text, Textarea, Title } from "@mantine/core";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import type { Schemas } from "@/api/client";
import { OlderButton } from "@/components/older-button";
import { QueryState } from "@/components/query-state";
import {
  PLAN_PAGE,
  type Plan,
  useApplyPlan,
  useDecidePlan,
  usePlan,
  usePlanTasks,
} from "@/features/plans/api/plans";
import { PlanTaskEntryCard } from "@/features/plans/components/plan-task";
import { moreLabel, OPEN_AT_ONCE, taskTotal } from "@/features/plans/lib/paging";
import { formatDateTime, plural } from "@/lib/format";
import { paths } from "@/lib/paths";

type Run = Schemas["RunRead"];

const APPROVAL: Record<Plan["approval"]["state"], { label: string; color: string }> = {
  not_needed: { label: "no approval needed", color: "gray" },
  waiting: { label: "waiting for approval", color: "yellow" },
  approved: { label: "approved", color: "green" },
  rejected: { label: "rejected", color: "red" },
};

/** On a plan's page: what it would change (the summary, the unknowns first, the diffs by
 * task), its approval and its apply; on an apply's page: its plan and what it changed that
 * the plan did not predict. Nothing for a plain run. */
export function PlanPanel({ run }: { run: Run }) {
  if (run.kind === "apply") return <ApplyOfPlan run={run} />;
  if (run.kind !== "plan") return null;
  return <PlanOfRun run={run} />;
}

function ApplyOfPlan({ run }: { run: Run }) {
  const plan = run.plan;
  if (!plan) return null;
  const unplanned = plan.unplanned ?? [];
  return (
    <Stack gap="xs">
      <Text size="sm">
        Apply of{" "}
        <Anchor component={Link} to={paths.run(run.project_id, plan.plan_id)}>
          plan #{plan.plan_id}
        </Anchor>
        {plan.approved_by && ` · approved by ${plan.approved_by}`}
        {plan.approval_comment && `: “${plan.approval_comment}”`}
      </Text>
      {(plan.unplanned_count ?? 0) > 0 && (
        <Alert color="orange" title={`${plural(plan.unplanned_count ?? 0, "unplanned change")}`}>
          <Text size="sm">Changed here, but neither predicted nor marked unknown by the plan:</Text>
          <Stack gap={2} mt={4} component="ul" style={{ paddingLeft: 18, margin: 0 }}>
            {unplanned.map((change) => (
              <li key={`${change.host}:${change.counter}`}>
                <Text size="sm" span ff="monospace">
                  {change.host}
                </Text>{" "}
                <Text size="sm" span>
                  {change.task}
                </Text>{" "}
                <Text size="xs" span c="dimmed">
                  {change.task_path}
                </Text>
              </li>
            ))}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

function PlanOfRun({ run }: { run: Run }) {
  const read = usePlan(run.project_id, run.id, `${run.status}:${run.event_count}`);
  if (run.status === "queued" || run.status === "running") {
    return (
      <Text size="sm" c="dimmed">
        A plan: what it would change shows here when it ends.
      </Text>
    );
  }
  return (
    <QueryState query={read} loading="Loading the plan" failed="Could not load the plan" small>
      {(plan) => <PlanView run={run} plan={plan} />}
    </QueryState>
  );
}

function PlanView({ run, plan }: { run: Run; plan: Plan }) {
  return (
    <Stack gap="sm" aria-label="Plan">
      <Group gap="xs" wrap="wrap">
        <Title order={4}>Plan: {plan.summary}</Title>
        {plan.approval.required && (
          <Badge color={APPROVAL[plan.approval.state].color} variant="light">
            {APPROVAL[plan.approval.state].label}
          </Badge>
        )}
        <Text size="xs" c={plan.expired ? "red" : "dimmed"}>
          {plan.expired ? "expired" : "expires"} {formatDateTime(plan.expires_at)}
        </Text>
      </Group>
      <PlanApproval run={run} plan={plan} />
      <PlanApply run={run} plan={plan} />
      <PlanTasks run={run} plan={plan} />
    </Stack>
  );
}

/** The plan's tasks, a page at a time after the summary; the first few open with their diffs. */
function PlanTasks({ run, plan }: { run: Run; plan: Plan }) {
  const pages = usePlanTasks(run.project_id, run.id, `${run.status}:${run.event_count}`);
  const total = taskTotal(plan);
  if (total === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nothing would change.
      </Text>
    );
  }
  const tasks = pages.data?.pages.flatMap((page) => page.items) ?? [];
  const more = moreLabel(tasks.length, total, PLAN_PAGE, "task");
  return (
    <Stack gap="sm" aria-label="Plan tasks">
      {pages.isPending && (
        <Text size="sm" c="dimmed">
          Loading the tasks
        </Text>
      )}
      {pages.error && (
        <Text size="sm" c="red">
          Could not load the tasks: {pages.error.message}
        </Text>
      )}
      {tasks.map((task, index) => (
        <PlanTaskEntryCard
          key={task.key}
          projectId={run.project_id}
          runId={run.id}
          task={task}
          open={index < OPEN_AT_ONCE}
        />
      ))}
      {more && <OlderButton pages={pages}>{more}</OlderButton>}
    </Stack>
  );
}

function PlanApproval({ run, plan }: { run: Run; plan: Plan }) {
  const [comment, setComment] = useState("");
  const decide = useDecidePlan(run.project_id, run.id);
  const approval = plan.approval;
  if (!approval.required) return null;
  if (approval.state !== "waiting") {
    return (
      <Text size="sm">
        {approval.state === "approved" ? "Approved" : "Rejected"} by {approval.decided_by || "—"}
        {approval.decided_at && ` on ${formatDateTime(approval.decided_at)}`}
        {approval.comment && `: “${approval.comment}”`}
      </Text>
    );
  }
  if (!approval.can_approve) {
    return (
      <Text size="sm" c="dimmed">
        Waiting for {approval.who}.{approval.approve_reason && ` ${approval.approve_reason}`}
      </Text>
    );
  }
  const send = (approve: boolean) => decide.mutate({ approve, comment });
  return (
    <Stack gap="xs">
      <Textarea
        label="Comment"
        description="Kept with your decision in the audit trail and shown on the apply"
        autosize
        minRows={1}
        value={comment}
        onChange={(event) => setComment(event.currentTarget.value)}
      />
      <Group gap="xs">
        <Button color="green" loading={decide.isPending} onClick={() => send(true)}>
          Approve
        </Button>
        <Button
          variant="default"
          color="red"
          loading={decide.isPending}
          onClick={() => send(false)}
        >
          Reject
        </Button>
      </Group>
      {decide.error && (
        <Text size="sm" c="red">
          {decide.error.message}
        </Text>
      )}
    </Stack>
  );
}

function PlanApply({ run, plan }: { run: Run; plan: Plan }) {
  const navigate = useNavigate();
  const apply = useApplyPlan(run.project_id, run.id);
  if (plan.apply_run_id !== null) {
    return (
      <Text size="sm">
        Applied in{" "}
        <Anchor component={Link} to={paths.run(run.project_id, plan.apply_run_id)}>
          run #{plan.apply_run_id}
        </Anchor>
        {plan.apply_status && ` (${plan.apply_status})`}
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Button
          disabled={plan.apply_refusal !== ""}
          loading={apply.isPending}
          onClick={() =>
            apply.mutate(undefined, {
              onSuccess: (applied) => void navigate(paths.run(run.project_id, applied.id)),
            })
          }
        >
          Apply this plan
        </Button>
        <Text size="xs" c="dimmed">
          the plan's commit ({plan.binding.commit.slice(0, 12) || "—"}) and launch values
        </Text>
      </Group>
      {(plan.apply_refusal || apply.error) && (
        <Text size="sm" c="red">
          {apply.error ? apply.error.message : plan.apply_refusal}
        </Text>
      )}
    </Stack>
  );
}
