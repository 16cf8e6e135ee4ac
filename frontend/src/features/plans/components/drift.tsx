import { Alert, Anchor, Badge, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { Link, useNavigate } from "react-router";
import type { Schemas } from "@/api/client";
import { type Column, ColumnsTable } from "@/components/columns-table";
import { QueryState } from "@/components/query-state";
import {
  useApplyPlan,
  useHostDrift,
  useProjectDrift,
  useTemplateDrift,
} from "@/features/plans/api/plans";
import { PlanTaskCard } from "@/features/plans/components/plan-task";
import { formatDateTime, plural } from "@/lib/format";
import { paths } from "@/lib/paths";

type Fix = Pick<Schemas["DriftSummary"], "plan_run_id" | "can_apply" | "apply_refusal">;

/** The hosts in drift: each opens its page, with the templates drifted on it. */
function hostColumns(projectId: number): readonly Column<Schemas["DriftedHost"]>[] {
  return [
    {
      key: "host",
      header: "Host",
      cell: (h) => (
        <Anchor
          component={Link}
          to={paths.host(projectId, h.host)}
          ff="monospace"
          size="sm"
          style={{ overflowWrap: "anywhere" }}
        >
          {h.host}
        </Anchor>
      ),
    },
    {
      key: "templates",
      header: "Drifted templates",
      cell: (h) => h.templates.map((t) => t.template_name).join(", "),
    },
  ];
}

/** "Apply to fix": the drift's plan, applied as any plan is (bound to what it ran with); or
 * why it cannot be now. Opens the apply's page. */
export function ApplyToFix({ projectId, fix }: { projectId: number; fix: Fix }) {
  const navigate = useNavigate();
  const apply = useApplyPlan(projectId, fix.plan_run_id ?? 0);
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="wrap">
        <Button
          size="xs"
          disabled={!fix.can_apply || fix.plan_run_id === null}
          loading={apply.isPending}
          onClick={() =>
            apply.mutate(undefined, {
              onSuccess: (applied) => void navigate(paths.run(projectId, applied.id)),
            })
          }
        >
          Apply to fix
        </Button>
        {fix.plan_run_id !== null && (
          <Anchor component={Link} to={paths.run(projectId, fix.plan_run_id)} size="sm">
            plan #{fix.plan_run_id}
          </Anchor>
        )}
      </Group>
      {(apply.error || !fix.can_apply) && (
        <Text size="sm" c={apply.error ? "red" : "dimmed"}>
          {apply.error ? apply.error.message : fix.apply_refusal}
        </Text>
      )}
    </Stack>
  );
}

/** The project's drift: each drifted template (what a scheduled plan found changed since its
 * last clean run), its hosts and "apply to fix"; then the hosts in drift. */
export function ProjectDriftView({ projectId }: { projectId: number }) {
  const drift = useProjectDrift(projectId);
  return (
    <Stack gap="md" aria-label="Drift">
      <div>
        <Title order={3}>Drift</Title>
        <Text size="sm" c="dimmed">
          A schedule that runs plans finds drift: changes on a template whose last run finished
          cleanly. A clean plan or a successful run clears it.
        </Text>
      </div>
      <QueryState query={drift} loading="Loading the drift" failed="Could not load the drift">
        {(data) =>
          data.templates.length === 0 ? (
            <Text size="sm" c="dimmed">
              No drift: every template checked by a plan is as its last run left it.
            </Text>
          ) : (
            <Stack gap="md">
              {data.templates.map((t) => (
                <Card
                  key={t.template_id}
                  withBorder
                  padding="sm"
                  aria-label={`Drift of ${t.template_name}`}
                >
                  <Stack gap="xs">
                    <Group gap="xs" wrap="wrap">
                      <Badge color="orange" variant="light">
                        drift
                      </Badge>
                      <Anchor
                        component={Link}
                        to={paths.template(projectId, t.template_id)}
                        fw={500}
                        style={{ overflowWrap: "anywhere" }}
                      >
                        {t.template_name}
                      </Anchor>
                      <Text size="sm" c="dimmed">
                        {plural(t.host_count, "host")}, {plural(t.task_count, "task")}
                        {t.detected_at && ` · since ${formatDateTime(t.detected_at)}`}
                      </Text>
                    </Group>
                    <Group gap={6} wrap="wrap">
                      {t.hosts.map((host) => (
                        <Anchor
                          key={host}
                          component={Link}
                          to={paths.host(projectId, host)}
                          size="sm"
                          ff="monospace"
                        >
                          {host}
                        </Anchor>
                      ))}
                    </Group>
                    <ApplyToFix projectId={projectId} fix={t} />
                  </Stack>
                </Card>
              ))}
              <ColumnsTable
                label="Hosts in drift"
                columns={hostColumns(projectId)}
                rows={data.hosts}
                rowKey={(h) => h.host}
                compact
              />
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}

/** A badge on a template in drift (nothing otherwise, nor when its runs are not the caller's
 * to see). */
export function TemplateDriftBadge({
  projectId,
  templateId,
}: {
  projectId: number;
  templateId: number;
}) {
  const drift = useTemplateDrift(projectId, templateId);
  if (drift.data?.state !== "drift") return null;
  return (
    <Badge
      component={Link}
      to={paths.project(projectId, "drift")}
      color="orange"
      variant="light"
      style={{ cursor: "pointer" }}
      aria-label={`In drift: ${plural(drift.data.host_count, "host")}`}
    >
      drift · {plural(drift.data.host_count, "host")}
    </Badge>
  );
}

/** On a host's page: the drifted templates that would change it, what they would change
 * there, and "apply to fix". */
export function HostDriftSection({ projectId, host }: { projectId: number; host: string }) {
  const drift = useHostDrift(projectId, host);
  return (
    <Stack gap="xs" aria-label="Host drift">
      <Title order={3}>Drift</Title>
      <QueryState query={drift} loading="Loading the drift" failed="Could not load the drift" small>
        {(data) =>
          data.templates.length === 0 ? (
            <Text size="sm" c="dimmed">
              No drift found on this host.
            </Text>
          ) : (
            data.templates.map((t) => (
              <Alert
                key={t.template_id}
                color="orange"
                variant="light"
                title={`${t.template_name}: drift`}
              >
                <Stack gap="xs">
                  {t.detected_at && <Text size="sm">Found {formatDateTime(t.detected_at)}</Text>}
                  {t.tasks.map((task) => (
                    <PlanTaskCard key={task.task_path || task.task} task={task} />
                  ))}
                  <ApplyToFix projectId={projectId} fix={t} />
                </Stack>
              </Alert>
            ))
          )
        }
      </QueryState>
    </Stack>
  );
}
