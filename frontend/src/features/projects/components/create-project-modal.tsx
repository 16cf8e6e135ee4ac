import { Button, Group, Modal, Stack } from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { FormError } from "@/components/form-error";
import { useCreateProject } from "@/features/projects/api/create-project";
import {
  ProjectFields,
  type ProjectFormValues,
  toProjectBody,
} from "@/features/projects/components/project-fields";
import { applyServerErrors } from "@/lib/form-errors";

const EMPTY: ProjectFormValues = { name: "", description: "", max_parallel_runs: "" };

export function CreateProjectModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateProject();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ProjectFormValues>({ mode: "uncontrolled", initialValues: EMPTY });

  const close = () => {
    form.reset();
    setFormError(null);
    onClose();
  };
  const submit = form.onSubmit((values) => {
    setFormError(null);
    create.mutate(toProjectBody(values), {
      onSuccess: (project) => {
        notifications.show({ color: "green", message: `Project “${project.name}” created` });
        close();
      },
      onError: (error) => setFormError(applyServerErrors(form, error)),
    });
  });

  return (
    <Modal opened={opened} onClose={close} title="New project">
      <form onSubmit={submit} noValidate>
        <Stack>
          <ProjectFields form={form} />
          <FormError message={formError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create project
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
