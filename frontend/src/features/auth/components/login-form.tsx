import { Button, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { FormError } from "@/components/form-error";
import { type LoginInput, useLogin } from "@/features/auth/api/login";
import { useServerErrors } from "@/lib/form-errors";

export function LoginForm({ onSignedIn }: { onSignedIn: () => void }) {
  const login = useLogin();
  const form = useForm<LoginInput>({
    mode: "uncontrolled",
    initialValues: { username: "", password: "" },
  });
  const serverErrors = useServerErrors(form);

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    login.mutate(values, {
      onSuccess: onSignedIn,
      onError: (error) => serverErrors.show(error),
    });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Username"
          autoComplete="username"
          required
          data-autofocus
          key={form.key("username")}
          {...form.getInputProps("username")}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          key={form.key("password")}
          {...form.getInputProps("password")}
        />
        <FormError message={serverErrors.message} />
        <Button type="submit" loading={login.isPending} fullWidth>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
