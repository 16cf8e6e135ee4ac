import { Anchor, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import { FormError } from "@/components/form-error";
import { TextFields } from "@/components/text-fields";
import { challengeOf, type LoginInput, useLogin } from "@/features/auth/api/login";
import { SsoButton } from "@/features/auth/components/sso-button";
import {
  CODE_DIGITS,
  type Credentials,
  type LoginStep,
  START,
  afterRefusal,
  loginWithOtp,
  otpProblem,
  withRecovery,
} from "@/features/auth/lib/login-steps";
import { useServerErrors } from "@/lib/form-errors";

type CodeStep = Extract<LoginStep, { step: "code" }>;

/**
 * Sign in: username and password, then, for an account with two-factor authentication, the
 * code from the authenticator app (or a recovery code). The password waits in this component's
 * state for the second request only. Below the form, the single sign-on button when the server
 * has an OpenID provider (whose sign-in asks no Steward code: the provider checks its own).
 */
export function LoginForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [step, setStep] = useState<LoginStep>(START);
  const [username, setUsername] = useState("");
  if (step.step === "code") {
    return (
      <CodeForm
        // a fresh field when switching between the app's code and a recovery code
        key={step.recovery ? "recovery" : "app"}
        step={step}
        onSignedIn={onSignedIn}
        onRecovery={(recovery) => setStep(withRecovery(step, recovery))}
        onStartOver={() => setStep(START)}
      />
    );
  }
  return (
    <>
      <PasswordForm
        username={username}
        onSignedIn={onSignedIn}
        onRefused={(sent, error) => {
          setUsername(sent.username);
          setStep(afterRefusal(step, sent, challengeOf(error)));
        }}
      />
      <SsoButton />
    </>
  );
}

interface PasswordFormProps {
  username: string;
  onSignedIn: () => void;
  /** whether the refusal asks for a code is the parent's call (afterRefusal) */
  onRefused: (sent: Credentials, error: unknown) => void;
}

function PasswordForm({ username, onSignedIn, onRefused }: PasswordFormProps) {
  const login = useLogin();
  const form = useForm<LoginInput>({
    mode: "uncontrolled",
    initialValues: { username, password: "" },
  });
  const serverErrors = useServerErrors(form);

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    login.mutate(values, {
      onSuccess: onSignedIn,
      onError: (error) => {
        if (challengeOf(error) !== "otp_required") serverErrors.show(error);
        onRefused(values, error);
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Sign in">
      <Stack>
        <TextFields
          form={form}
          fields={[
            {
              name: "username",
              label: "Username",
              autoComplete: "username",
              required: true,
              "data-autofocus": true,
            },
            {
              name: "password",
              label: "Password",
              password: true,
              autoComplete: "current-password",
              required: true,
            },
          ]}
        />
        <FormError message={serverErrors.message} />
        <Button type="submit" loading={login.isPending} fullWidth>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}

interface CodeFormProps {
  step: CodeStep;
  onSignedIn: () => void;
  onRecovery: (recovery: boolean) => void;
  onStartOver: () => void;
}

function CodeForm({ step, onSignedIn, onRecovery, onStartOver }: CodeFormProps) {
  const login = useLogin();
  const { recovery } = step;
  const form = useForm({
    mode: "uncontrolled",
    initialValues: { otp: "" },
    validate: { otp: (value) => otpProblem(value, recovery) },
  });
  const serverErrors = useServerErrors(form);

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    login.mutate(loginWithOtp(step, values.otp), {
      onSuccess: onSignedIn,
      onError: (error) => serverErrors.show(error),
    });
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Two-factor authentication">
      <Stack>
        <Stack gap={4}>
          <Text fw={600}>Two-factor authentication</Text>
          <Text size="sm" c="dimmed">
            {recovery
              ? "Enter one of the recovery codes you stored when you turned two-factor authentication on. Each works once."
              : `Open your authenticator app and enter the ${CODE_DIGITS}-digit code for Steward.`}
          </Text>
        </Stack>
        {recovery ? (
          <TextInput
            label="Recovery code"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            required
            autoFocus
            key={form.key("otp")}
            {...form.getInputProps("otp")}
          />
        ) : (
          <TextInput
            label="Authentication code"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="123456"
            required
            autoFocus
            key={form.key("otp")}
            {...form.getInputProps("otp")}
          />
        )}
        <FormError message={serverErrors.message} />
        <Button type="submit" loading={login.isPending} fullWidth>
          Verify
        </Button>
        <Group justify="space-between" gap="xs">
          <Anchor component="button" type="button" size="sm" onClick={() => onRecovery(!recovery)}>
            {recovery ? "Use your authenticator app" : "Use a recovery code"}
          </Anchor>
          <Anchor component="button" type="button" size="sm" onClick={onStartOver}>
            Start over
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
