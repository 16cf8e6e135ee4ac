import { useForm } from "@mantine/form";
import { FormModal } from "@/components/form-modal";
import { useCreateProject } from "@/features/projects/api/create-project";
import {
  ProjectFields,
  type ProjectFormValues,
  toProjectBody,
} from "@/features/projects/components/project-fields";
import { useCreateDialog } from "@/lib/create-dialog";

const EMPTY: ProjectFormValues = { name: "", description: "", max_parallel_runs: "" };

export function CreateProjectModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const form = useForm<ProjectFormValues>({ mode: "uncontrolled", initialValues: EMPTY });
  const dialog = useCreateDialog(form, useCreateProject(), {
    toBody: toProjectBody,
    created: (project) => `Project “${project.name}” created`,
    onClose,
  });

  return (
    <FormModal opened={opened} title="New project" submitLabel="Create project" {...dialog}>
      <ProjectFields form={form} />
    </FormModal>
  );
}
