import { TextInput, Textarea } from "@mantine/core";
import { useForm } from "@mantine/form";
import { FormModal } from "@/components/form-modal";
import { type Team, useSaveTeam } from "@/features/teams/api/teams";
import { useServerErrors } from "@/lib/form-errors";

/** A new team (`team` undefined) or a team's name and description. */
export function TeamFormModal({ team, onClose }: { team?: Team; onClose: () => void }) {
  const save = useSaveTeam();
  const form = useForm({
    mode: "uncontrolled",
    initialValues: { name: team?.name ?? "", description: team?.description ?? "" },
  });
  const serverErrors = useServerErrors(form);
  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    save.mutate(
      { id: team?.id, ...values },
      { onSuccess: onClose, onError: (error) => serverErrors.show(error) },
    );
  });
  return (
    <FormModal
      onClose={onClose}
      title={team ? `Edit team “${team.name}”` : "New team"}
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel={team ? "Save" : "Create team"}
      pending={save.isPending}
    >
      <TextInput
        label="Name"
        required
        data-autofocus
        key={form.key("name")}
        {...form.getInputProps("name")}
      />
      <Textarea
        label="Description"
        autosize
        minRows={2}
        key={form.key("description")}
        {...form.getInputProps("description")}
      />
    </FormModal>
  );
}
