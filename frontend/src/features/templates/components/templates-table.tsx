import { Button, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { Schemas } from "@/api/client";
import { type Column, PagedTable } from "@/components/paged-table";
import { useTemplates } from "@/features/templates/api/get-templates";
import { useLaunchTemplate } from "@/features/templates/api/launch-template";
import { usePageParam } from "@/hooks/use-page-param";

type Template = Schemas["TemplateRead"];
type Run = Schemas["RunRead"];

interface TemplatesTableProps {
  projectId: number;
  onLaunched: (run: Run) => void;
}

// TODO(templates UI): create/edit form, launch dialog with overrides and survey, delete
export function TemplatesTable({ projectId, onLaunched }: TemplatesTableProps) {
  const { page, setPage, limit, offset } = usePageParam(25);
  const templates = useTemplates(projectId, limit, offset);
  const launch = useLaunchTemplate(projectId);

  const columns: Column<Template>[] = [
    {
      key: "name",
      header: "Name",
      cell: (template) => (
        <Stack gap={0}>
          <Text fw={500}>{template.name}</Text>
          <Text size="xs" c="dimmed" lineClamp={1}>
            {template.description}
          </Text>
        </Stack>
      ),
    },
    {
      key: "playbook",
      header: "Playbook",
      visibleFrom: "sm",
      cell: (template) => (
        <Text size="sm" ff="monospace">
          {template.playbook}
        </Text>
      ),
    },
    {
      key: "sources",
      header: "Repository · inventory",
      visibleFrom: "md",
      cell: (template) => (
        <Text size="sm">
          {template.repository.name} · {template.inventory.name}
        </Text>
      ),
    },
    {
      key: "launch",
      header: "",
      cell: (template) => (
        <Button
          size="xs"
          aria-label={`Launch ${template.name}`}
          loading={launch.isPending && launch.variables === template.id}
          onClick={() =>
            launch.mutate(template.id, {
              onSuccess: onLaunched,
              onError: (error) =>
                notifications.show({
                  color: "red",
                  title: `Could not launch ${template.name}`,
                  message: error.message,
                }),
            })
          }
        >
          Launch
        </Button>
      ),
    },
  ];

  return (
    <PagedTable
      label="Templates"
      columns={columns}
      rowKey={(template) => template.id}
      data={templates.data}
      isPending={templates.isPending}
      error={templates.error}
      page={page}
      onPageChange={setPage}
      empty="No templates yet."
    />
  );
}
