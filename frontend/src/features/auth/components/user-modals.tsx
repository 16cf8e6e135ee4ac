import { Checkbox, PasswordInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { FormModal } from "@/components/form-modal";
import { type TextField, TextFields } from "@/components/text-fields";
import {
  type User,
  useCreateUser,
  useResetPassword,
  useUpdateUser,
} from "@/features/auth/api/users";
import { useCreateDialog } from "@/lib/create-dialog";
import { useServerErrors } from "@/lib/form-errors";

interface NewUserValues {
  username: string;
  display_name: string;
  email: string;
  password: string;
  is_admin: boolean;
}

const EMPTY: NewUserValues = {
  username: "",
  display_name: "",
  email: "",
  password: "",
  is_admin: false,
};

/** A person's name and e-mail, set by an admin. */
const PERSON_FIELDS = [
  { name: "display_name", label: "Display name" },
  { name: "email", label: "E-mail", type: "email" },
] as const satisfies readonly TextField<"display_name" | "email">[];

export function CreateUserModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const form = useForm<NewUserValues>({ mode: "uncontrolled", initialValues: EMPTY });
  const dialog = useCreateDialog(form, useCreateUser(), {
    toBody: (values) => values,
    created: (user) => `User “${user.username}” created`,
    onClose,
  });
  return (
    <FormModal opened={opened} title="New user" submitLabel="Create user" {...dialog}>
      <TextFields
        form={form}
        fields={[
          {
            name: "username",
            label: "Username",
            description: "Letters, digits and . _ @ -",
            required: true,
            "data-autofocus": true,
            autoComplete: "off",
          },
          ...PERSON_FIELDS,
          {
            name: "password",
            label: "Password",
            password: true,
            description: "At least 8 characters; they can change it after signing in",
            required: true,
            autoComplete: "new-password",
          },
        ]}
      />
      <Checkbox
        label="Admin: manages users and teams, and may do everything in every project"
        key={form.key("is_admin")}
        {...form.getInputProps("is_admin", { type: "checkbox" })}
      />
    </FormModal>
  );
}

interface EditValues {
  display_name: string;
  email: string;
}

export function EditUserModal({ user, onClose }: { user: User; onClose: () => void }) {
  const update = useUpdateUser();
  const form = useForm<EditValues>({
    mode: "uncontrolled",
    initialValues: { display_name: user.display_name, email: user.email },
  });
  const serverErrors = useServerErrors(form);
  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    update.mutate(
      { id: user.id, ...values },
      { onSuccess: onClose, onError: (error) => serverErrors.show(error) },
    );
  });
  return (
    <FormModal
      onClose={onClose}
      title={`Edit “${user.username}”`}
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel="Save"
      pending={update.isPending}
    >
      <TextFields
        form={form}
        fields={[{ ...PERSON_FIELDS[0], "data-autofocus": true }, PERSON_FIELDS[1]]}
      />
    </FormModal>
  );
}

export function ResetPasswordModal({ user, onClose }: { user: User; onClose: () => void }) {
  const reset = useResetPassword();
  const form = useForm({ mode: "uncontrolled", initialValues: { password: "" } });
  const serverErrors = useServerErrors(form);
  const submit = form.onSubmit(({ password }) => {
    serverErrors.clear();
    reset.mutate(
      { id: user.id, password },
      {
        onSuccess: () => {
          notifications.show({
            color: "green",
            message: `Password of “${user.username}” set; their browser sessions ended.`,
          });
          onClose();
        },
        onError: (error) => serverErrors.show(error),
      },
    );
  });
  return (
    <FormModal
      onClose={onClose}
      title={`Reset the password of “${user.username}”`}
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel="Set password"
      pending={reset.isPending}
    >
      <PasswordInput
        label="New password"
        description="Their browser sessions end; their API tokens keep working."
        required
        data-autofocus
        autoComplete="new-password"
        key={form.key("password")}
        {...form.getInputProps("password")}
      />
    </FormModal>
  );
}
