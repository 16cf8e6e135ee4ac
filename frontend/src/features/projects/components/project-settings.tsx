import { Alert, Button, Divider, Fieldset, Group, Stack, Text, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDisclosure } from "@mantine/hooks";
import type { ReactNode } from "react";
import { notifications } from "@mantine/notifications";
import type { Schemas } from "@/api/client";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import { FormError } from "@/components/form-error";
import { useDeleteProject } from "@/features/projects/api/delete-project";
import { useExportProject } from "@/features/projects/api/export-project";
import { useUpdateProject } from "@/features/projects/api/update-project";
import {
  ProjectFields,
  type ProjectFormValues,
  toProjectBody,
} from "@/features/projects/components/project-fields";
import { useServerErrors } from "@/lib/form-errors";

interface ProjectSettingsProps {
  project: Schemas["ProjectRead"];
  /** may change and delete the project (project:edit); else the page only shows the settings */
  canEdit: boolean;
  onDeleted: () => void;
  /** more of the project's settings (from other features), each after a divider */
  sections?: ReactNode;
}

export function ProjectSettings({ project, canEdit, onDeleted, sections }: ProjectSettingsProps) {
  const update = useUpdateProject(project.id);
  const remove = useDeleteProject(project.id);
  const [confirming, confirm] = useDisclosure(false);
  const form = useForm<ProjectFormValues>({
    mode: "uncontrolled",
    initialValues: {
      name: project.name,
      description: project.description,
      max_parallel_runs: project.max_parallel_runs ?? "",
    },
  });
  const serverErrors = useServerErrors(form);

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    update.mutate(toProjectBody(values), {
      onSuccess: (saved) => {
        form.resetDirty();
        notifications.show({ color: "green", message: `Saved “${saved.name}”` });
      },
      onError: (error) => serverErrors.show(error),
    });
  });

  if (!canEdit) {
    return (
      <Stack maw={800}>
        <Alert color="blue" title="Read only">
          You may see this project&apos;s settings but not change them: that takes the
          project&apos;s owner role.
        </Alert>
        <Fieldset variant="unstyled" disabled aria-label="Project settings">
          <ProjectFields form={form} />
        </Fieldset>
        {sections}
      </Stack>
    );
  }
  return (
    <Stack maw={800}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <ProjectFields form={form} />
          <FormError message={serverErrors.message} />
          <Group>
            <Button type="submit" loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
      {sections}
      <Divider my="md" />
      <ExportSection projectId={project.id} />
      <Divider my="md" />
      <Title order={3} size="h4">
        Delete this project
      </Title>
      <Text size="sm" c="dimmed">
        Its templates, runs, inventories, repositories, keys and environments are deleted with it.
      </Text>
      <Group>
        <Button color="red" variant="outline" onClick={confirm.open}>
          Delete project
        </Button>
      </Group>
      <ConfirmDeleteModal
        opened={confirming}
        onClose={confirm.close}
        subject={`project “${project.name}”`}
        consequence="Everything in it is deleted too: templates, runs and their output, inventories, repositories, keys and environments. This cannot be undone."
        onConfirm={() => remove.mutateAsync().then(onDeleted)}
      />
    </Stack>
  );
}

/** Download the project as one JSON file, to import it here or on another server. */
function ExportSection({ projectId }: { projectId: number }) {
  const exportProject = useExportProject(projectId);
  return (
    <>
      <Title order={3} size="h4">
        Export
      </Title>
      <Text size="sm" c="dimmed">
        One JSON file with the project&apos;s settings, keys (names and kinds only: never a secret),
        repositories, inventories, environments, templates, schedules, webhooks and notifications.
        Import it from the projects list.
      </Text>
      <FormError message={exportProject.error ? exportProject.error.message : null} />
      <Group>
        <Button
          variant="default"
          loading={exportProject.isPending}
          onClick={() =>
            exportProject.mutate(undefined, {
              onSuccess: (name) =>
                notifications.show({ color: "green", message: `Downloaded ${name}` }),
            })
          }
        >
          Export
        </Button>
      </Group>
    </>
  );
}
