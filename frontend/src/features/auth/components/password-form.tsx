import { Button, Group, Stack, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { FormError } from "@/components/form-error";
import { TextFields } from "@/components/text-fields";
import { useChangePassword } from "@/features/auth/api/account";
import { useServerErrors } from "@/lib/form-errors";

interface PasswordValues {
  current_password: string;
  new_password: string;
  repeat: string;
}

const EMPTY: PasswordValues = { current_password: "", new_password: "", repeat: "" };

/** Change your password, given the current one; your other browser sessions end. */
export function PasswordForm() {
  const change = useChangePassword();
  const form = useForm<PasswordValues>({
    mode: "uncontrolled",
    initialValues: EMPTY,
    validate: {
      // a typing slip caught here; every other rule is the server's
      repeat: (value, values) => (value === values.new_password ? null : "Does not match"),
    },
  });
  const serverErrors = useServerErrors(form);
  const submit = form.onSubmit(({ current_password, new_password }) => {
    serverErrors.clear();
    change.mutate(
      { current_password, new_password },
      {
        onSuccess: () => {
          form.reset();
          notifications.show({
            color: "green",
            message: "Password changed; your other sessions were signed out.",
          });
        },
        onError: (error) => serverErrors.show(error),
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Change password">
      <Stack maw={480}>
        <Text size="sm" c="dimmed">
          Your other browser sessions end; API tokens keep working.
        </Text>
        <TextFields
          form={form}
          fields={[
            {
              name: "current_password",
              label: "Current password",
              password: true,
              autoComplete: "current-password",
              required: true,
            },
            {
              name: "new_password",
              label: "New password",
              password: true,
              autoComplete: "new-password",
              description: "At least 8 characters",
              required: true,
            },
            {
              name: "repeat",
              label: "Repeat the new password",
              password: true,
              autoComplete: "new-password",
              required: true,
            },
          ]}
        />
        <FormError message={serverErrors.message} />
        <Group>
          <Button type="submit" loading={change.isPending}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
