import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { FormModal } from "@/components/form-modal";
import { useCreateProject } from "@/features/projects/api/create-project";
import {
  ProjectFields,
  type ProjectFormValues,
  toProjectBody,
} from "@/features/projects/components/project-fields";
import { useServerErrors } from "@/lib/form-errors";

const EMPTY: ProjectFormValues = { name: "", description: "", max_parallel_runs: "" };

export function CreateProjectModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateProject();
  const form = useForm<ProjectFormValues>({ mode: "uncontrolled", initialValues: EMPTY });
  const serverErrors = useServerErrors(form);

  const close = () => {
    form.reset();
    serverErrors.clear();
    onClose();
  };
  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    create.mutate(toProjectBody(values), {
      onSuccess: (project) => {
        notifications.show({ color: "green", message: `Project “${project.name}” created` });
        close();
      },
      onError: (error) => serverErrors.show(error),
    });
  });

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title="New project"
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel="Create project"
      pending={create.isPending}
    >
      <ProjectFields form={form} />
    </FormModal>
  );
}
