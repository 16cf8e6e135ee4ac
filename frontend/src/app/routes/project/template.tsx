import { Alert, Anchor, Button, Group, Stack, Tabs, Text, Title } from "@mantine/core";
import { useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { ComparePicker, useRunPicks } from "@/app/routes/project/compare-picker";
import { useProjectContext } from "@/app/routes/project/context";
import { createInPlace } from "@/app/routes/project/create-in-place";
import { SubscriptionsTable } from "@/features/notifications/components/subscriptions-table";
import { RunsTable } from "@/features/runs/components/runs-table";
import { SchedulesTable } from "@/features/schedules/components/schedules-table";
import { useTemplate } from "@/api/queries/project-options";
import { TemplateFormModal } from "@/features/templates/components/template-form-modal";
import { TemplateDriftBadge } from "@/features/plans/components/drift";
import { LAST_CHOICES, TemplateStatsPanel } from "@/features/templates/components/template-stats";
import { WebhooksTable } from "@/features/webhooks/components/webhooks-table";
import { idParam } from "@/lib/id-param";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";
import { QueryState } from "@/components/query-state";
import { LabelBadges } from "@/components/labels";

const TABS = ["schedules", "webhooks", "notifications", "runs"] as const;
type Tab = (typeof TABS)[number];

/** A template's page: what launches it by itself (schedules, webhooks) and who is told. */
function TemplatePage({ templateId }: { templateId: number }) {
  const { project } = useProjectContext();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const template = useTemplate(project.id, templateId);
  const picks = useRunPicks();
  const [editing, setEditing] = useState(false);
  const askedLast = Number(searchParams.get("last"));
  const last = LAST_CHOICES.find((n) => n === askedLast) ?? 50;
  const asked = searchParams.get("tab");
  const tab: Tab = TABS.find((t) => t === asked) ?? "schedules";
  const templatesHref = paths.project(project.id, "templates");

  return (
    <QueryState
      query={template}
      loading="Loading the template"
      notFound="Template not found"
      back={
        <Anchor component={Link} to={templatesHref}>
          Back to templates
        </Anchor>
      }
    >
      {(t) => {
        const mayWrite = t.permissions?.includes("write") ?? false;
        const mayRun = t.permissions?.includes("run") ?? false;
        const seesResources = can(project.permissions, PROJECT_ACTIONS.resourceView);
        const tabs = TABS.filter((name) => name !== "notifications" || seesResources);
        return (
          <Stack>
            <Anchor component={Link} to={templatesHref} size="sm">
              ← All templates
            </Anchor>
            <Group justify="space-between" align="flex-start" wrap="wrap">
              <Stack gap={2} miw={0} style={{ flex: "1 1 16rem" }}>
                <Group gap="xs" wrap="wrap">
                  <Title order={3} style={{ overflowWrap: "anywhere" }}>
                    {t.name}
                  </Title>
                  <TemplateDriftBadge projectId={project.id} templateId={t.id} />
                </Group>
                <Text size="sm" c="dimmed">
                  <Text span ff="monospace">
                    {t.playbook}
                  </Text>{" "}
                  · {t.repository.name} · {t.inventory.name}
                </Text>
                {t.description && <Text size="sm">{t.description}</Text>}
                <LabelBadges labels={t.labels} />
              </Stack>
              {(mayRun || mayWrite) && (
                <Group gap="xs">
                  {mayWrite && (
                    <Button variant="default" onClick={() => setEditing(true)}>
                      Edit
                    </Button>
                  )}
                  {mayRun && (
                    <Button component={Link} to={`${templatesHref}?launch=${t.id}`}>
                      Launch
                    </Button>
                  )}
                </Group>
              )}
            </Group>
            {editing && (
              <TemplateFormModal
                projectId={project.id}
                template={t}
                create={createInPlace(project)}
                onClose={() => setEditing(false)}
              />
            )}
            <TemplateStatsPanel
              projectId={project.id}
              templateId={t.id}
              last={last}
              onLast={(next) =>
                setSearchParams(
                  (current) => {
                    const params = new URLSearchParams(current);
                    params.set("last", String(next));
                    return params;
                  },
                  { replace: true },
                )
              }
            />
            <Tabs
              value={tab}
              onChange={(next) =>
                next &&
                setSearchParams((current) => {
                  const params = new URLSearchParams(current);
                  params.set("tab", next);
                  params.delete("page");
                  params.delete("subscriptions");
                  return params;
                })
              }
              keepMounted={false}
            >
              <Tabs.List aria-label="Template sections">
                <Tabs.Tab value="schedules">Schedules</Tabs.Tab>
                <Tabs.Tab value="webhooks">Webhooks</Tabs.Tab>
                {tabs.includes("notifications") && (
                  <Tabs.Tab value="notifications">Notifications</Tabs.Tab>
                )}
                <Tabs.Tab value="runs">Runs</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="runs" pt="md">
                <Stack gap="xs">
                  <ComparePicker projectId={project.id} picks={picks} />
                  <RunsTable
                    projectId={project.id}
                    filters={{ template_id: t.id }}
                    selection={picks}
                  />
                </Stack>
              </Tabs.Panel>
              <Tabs.Panel value="schedules" pt="md">
                <SchedulesTable
                  projectId={project.id}
                  template={t}
                  canWrite={mayWrite}
                  onCreated={(schedule) => void navigate(paths.schedule(project.id, schedule.id))}
                />
              </Tabs.Panel>
              <Tabs.Panel value="webhooks" pt="md">
                <WebhooksTable
                  projectId={project.id}
                  templateId={t.id}
                  canWrite={mayWrite && mayRun}
                  onCreated={(webhook) => void navigate(paths.webhook(project.id, webhook.id))}
                />
              </Tabs.Panel>
              {seesResources && (
                <Tabs.Panel value="notifications" pt="md">
                  <SubscriptionsTable
                    projectId={project.id}
                    templateId={t.id}
                    scheduleId={null}
                    canWriteProject={can(project.permissions, PROJECT_ACTIONS.resourceWrite)}
                    canWriteTemplate={mayWrite}
                  />
                </Tabs.Panel>
              )}
            </Tabs>
          </Stack>
        );
      }}
    </QueryState>
  );
}

export function Component() {
  const templateId = idParam(useParams().templateId);
  if (templateId === null) {
    return <Alert color="yellow" title="Template not found" />;
  }
  return <TemplatePage key={templateId} templateId={templateId} />;
}
