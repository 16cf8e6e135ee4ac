import { Badge, Button, Group, Stack, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import type { Schemas } from "@/api/client";
import { FormError } from "@/components/form-error";
import { TextFields } from "@/components/text-fields";
import { useUpdateProfile } from "@/features/auth/api/account";
import { useServerErrors } from "@/lib/form-errors";

interface ProfileValues {
  display_name: string;
  email: string;
}

/** Who you are here: your username and rights (set by an admin), your name and e-mail. */
export function ProfileForm({ user }: { user: Schemas["UserRead"] }) {
  const update = useUpdateProfile();
  const form = useForm<ProfileValues>({
    mode: "uncontrolled",
    initialValues: { display_name: user.display_name, email: user.email },
  });
  const serverErrors = useServerErrors(form);
  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    update.mutate(values, {
      onSuccess: () => {
        form.resetDirty();
        notifications.show({ color: "green", message: "Profile saved" });
      },
      onError: (error) => serverErrors.show(error),
    });
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Profile">
      <Stack maw={480}>
        <Group gap="xs">
          <Text fw={600}>{user.username}</Text>
          {user.is_admin && <Badge color="grape">admin</Badge>}
        </Group>
        <TextFields
          form={form}
          fields={[
            { name: "display_name", label: "Display name", autoComplete: "name" },
            { name: "email", label: "E-mail", type: "email", autoComplete: "email" },
          ]}
        />
        <FormError message={serverErrors.message} />
        <Group>
          <Button type="submit" loading={update.isPending}>
            Save profile
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
