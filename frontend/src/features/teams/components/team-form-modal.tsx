import { Textarea } from "@mantine/core";
import { useForm } from "@mantine/form";
import { FormModal } from "@/components/form-modal";
import { type Team, useSaveTeam } from "@/features/teams/api/teams";
import { directoryGroupsFromText } from "@/features/teams/lib/directory-groups";
import { useServerErrors } from "@/lib/form-errors";
import { NameDescriptionFields } from "@/components/name-description-fields";

/** A new team (`team` undefined) or a team's name, description and directory groups. */
export function TeamFormModal({ team, onClose }: { team?: Team; onClose: () => void }) {
  const save = useSaveTeam();
  const form = useForm({
    mode: "uncontrolled",
    initialValues: {
      name: team?.name ?? "",
      description: team?.description ?? "",
      // one group a line; an error on `directory_groups.3` shows here as "3: …" (0-based)
      directory_groups: (team?.directory_groups ?? []).join("\n"),
    },
  });
  const serverErrors = useServerErrors(form);
  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    save.mutate(
      {
        id: team?.id,
        ...values,
        directory_groups: directoryGroupsFromText(values.directory_groups),
      },
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
      <NameDescriptionFields form={form} />
      <Textarea
        label="Directory groups"
        description="One a line: LDAP group DNs (compared without case) or single sign-on group names. Their members join this team when they log in, and leave it when they leave the group; people added by hand stay."
        placeholder="cn=operators,ou=groups,dc=example,dc=com"
        autosize
        minRows={2}
        maxRows={8}
        spellCheck={false}
        key={form.key("directory_groups")}
        {...form.getInputProps("directory_groups")}
      />
    </FormModal>
  );
}
