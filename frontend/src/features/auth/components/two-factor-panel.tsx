import {
  Alert,
  Badge,
  Button,
  Center,
  Code,
  CopyButton,
  Group,
  Loader,
  PasswordInput,
  type PasswordInputProps,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { Suspense, lazy, useState } from "react";
import { FormError } from "@/components/form-error";
import { type User } from "@/features/auth/api/users";
import {
  type TotpEnrollment,
  useConfirmTotp,
  useDisableTotp,
  useStartTotp,
} from "@/features/auth/api/two-factor";
import { CODE_DIGITS, normalizeOtp, otpProblem } from "@/features/auth/lib/login-steps";
import { recoveryCodesFilename, recoveryCodesText } from "@/features/auth/lib/recovery-codes";
import { useServerErrors } from "@/lib/form-errors";

const TotpQr = lazy(() => import("@/features/auth/components/totp-qr"));

type Stage =
  | { kind: "status" }
  | { kind: "password" }
  | { kind: "scan"; enrollment: TotpEnrollment }
  | { kind: "codes"; codes: string[] }
  | { kind: "disable" };

/** Your two-factor authentication: its state, turning it on (scan, confirm, store the
 * recovery codes) and off. */
export function TwoFactorPanel({ user }: { user: User }) {
  const [stage, setStage] = useState<Stage>({ kind: "status" });
  const done = () => setStage({ kind: "status" });
  const on = user.totp_enabled;
  return (
    <Stack maw={560} component="section" aria-labelledby="two-factor-title">
      <Title order={3} size="h4" id="two-factor-title">
        Two-factor authentication
      </Title>
      <Group
        gap="xs"
        role="status"
        aria-label={`Two-factor authentication is ${on ? "on" : "off"}`}
      >
        <Text size="sm">Status:</Text>
        <Badge color={on ? "teal" : "gray"}>{on ? "On" : "Off"}</Badge>
      </Group>
      {stage.kind === "codes" ? (
        <RecoveryCodes codes={stage.codes} username={user.username} onDone={done} />
      ) : stage.kind === "scan" ? (
        <ScanForm
          enrollment={stage.enrollment}
          onConfirmed={(codes) => setStage({ kind: "codes", codes })}
          onCancel={done}
        />
      ) : stage.kind === "password" ? (
        <EnableForm
          onStarted={(enrollment) => setStage({ kind: "scan", enrollment })}
          onCancel={done}
        />
      ) : stage.kind === "disable" && on ? (
        <DisableForm onDisabled={done} onCancel={done} />
      ) : on ? (
        <>
          <Text size="sm">
            Signing in asks for a code from your authenticator app after your password. Lost the
            phone? A recovery code signs you in once; an admin can also turn it off for you.
          </Text>
          <Group>
            <Button variant="outline" color="red" onClick={() => setStage({ kind: "disable" })}>
              Disable two-factor authentication
            </Button>
          </Group>
        </>
      ) : (
        <>
          <Text size="sm">
            With two-factor authentication, signing in also asks for a code from an authenticator
            app on your phone (any TOTP app), so a stolen password is not enough.
          </Text>
          <Group>
            <Button onClick={() => setStage({ kind: "password" })}>
              Enable two-factor authentication
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

/** The password that confirms it is you, before two-factor authentication is turned on or off. */
function CurrentPasswordInput(props: PasswordInputProps) {
  return (
    <PasswordInput
      label="Current password"
      autoComplete="current-password"
      required
      autoFocus
      {...props}
    />
  );
}

function EnableForm({
  onStarted,
  onCancel,
}: {
  onStarted: (enrollment: TotpEnrollment) => void;
  onCancel: () => void;
}) {
  const start = useStartTotp();
  const form = useForm({ mode: "uncontrolled", initialValues: { password: "" } });
  const serverErrors = useServerErrors(form);
  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    start.mutate(values, {
      onSuccess: onStarted,
      onError: (error) => serverErrors.show(error),
    });
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Enable two-factor authentication">
      <Stack>
        <Text size="sm">Confirm it is you: your password first.</Text>
        <CurrentPasswordInput key={form.key("password")} {...form.getInputProps("password")} />
        <FormError message={serverErrors.message} />
        <Group>
          <Button type="submit" loading={start.isPending}>
            Continue
          </Button>
          <Button variant="default" onClick={onCancel} disabled={start.isPending}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ScanForm({
  enrollment,
  onConfirmed,
  onCancel,
}: {
  enrollment: TotpEnrollment;
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const confirm = useConfirmTotp();
  const form = useForm({
    mode: "uncontrolled",
    initialValues: { code: "" },
    validate: { code: (value) => otpProblem(value, false) },
  });
  const serverErrors = useServerErrors(form);
  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    confirm.mutate(
      { code: normalizeOtp(values.code, false) },
      {
        onSuccess: (answer) => onConfirmed(answer.recovery_codes),
        onError: (error) => serverErrors.show(error),
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Confirm two-factor authentication">
      <Stack>
        <Text size="sm">
          1. Scan this QR code with your authenticator app (Google Authenticator, Aegis, 1Password,
          …).
        </Text>
        <Suspense
          fallback={
            <Center w={200} h={200}>
              <Loader aria-label="Loading the QR code" />
            </Center>
          }
        >
          <TotpQr uri={enrollment.otpauth_uri} />
        </Suspense>
        <Stack gap={4}>
          <Text size="sm">Can’t scan it? Enter this key in the app instead:</Text>
          <Group gap="xs" wrap="nowrap" align="center">
            <Code aria-label="Secret key" style={{ wordBreak: "break-all" }}>
              {enrollment.secret}
            </Code>
            <CopyButton value={enrollment.secret}>
              {({ copied, copy }) => (
                <Button size="compact-sm" variant="subtle" onClick={copy}>
                  {copied ? "Copied" : "Copy key"}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Stack>
        <TextInput
          label="2. Authentication code"
          description={`The ${CODE_DIGITS}-digit code the app shows now`}
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          key={form.key("code")}
          {...form.getInputProps("code")}
        />
        <FormError message={serverErrors.message} />
        <Group>
          <Button type="submit" loading={confirm.isPending}>
            Verify and enable
          </Button>
          <Button variant="default" onClick={onCancel} disabled={confirm.isPending}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function download(text: string, filename: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  // after the click has been handled: revoking at once can cancel the download
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The recovery codes, right after enabling: shown here once, never again. */
function RecoveryCodes({
  codes,
  username,
  onDone,
}: {
  codes: string[];
  username: string;
  onDone: () => void;
}) {
  const site = window.location.host;
  const text = recoveryCodesText(codes, username, site);
  return (
    <Alert color="green" title="Two-factor authentication turned on: save your recovery codes">
      <Stack gap="sm">
        <Text size="sm" fw={600}>
          Store these recovery codes now: they are not shown again.
        </Text>
        <Text size="sm">
          Each one signs you in once if you lose your authenticator app. Keep them in a password
          manager or print them.
        </Text>
        <Code block aria-label="Recovery codes" style={{ columns: "2 8ch", fontSize: "1rem" }}>
          {codes.join("\n")}
        </Code>
        <Group gap="xs">
          <CopyButton value={text}>
            {({ copied, copy }) => (
              <Button size="sm" variant="default" onClick={copy}>
                {copied ? "Copied" : "Copy codes"}
              </Button>
            )}
          </CopyButton>
          <Button
            size="sm"
            variant="default"
            onClick={() => download(text, recoveryCodesFilename(username, site))}
          >
            Download codes
          </Button>
          <Button size="sm" onClick={onDone}>
            I have stored them
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function DisableForm({ onDisabled, onCancel }: { onDisabled: () => void; onCancel: () => void }) {
  const disable = useDisableTotp();
  const form = useForm({ mode: "uncontrolled", initialValues: { password: "", code: "" } });
  const serverErrors = useServerErrors(form);
  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    disable.mutate(
      { password: values.password, code: normalizeOtp(values.code, false) },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: "Two-factor authentication is off" });
          onDisabled();
        },
        onError: (error) => serverErrors.show(error),
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Disable two-factor authentication">
      <Stack>
        <Text size="sm">
          Your password and a code from your authenticator app (or a recovery code); then the
          password alone signs you in.
        </Text>
        <CurrentPasswordInput key={form.key("password")} {...form.getInputProps("password")} />
        <TextInput
          label="Authentication code"
          description="From your authenticator app, or one of your recovery codes"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          required
          key={form.key("code")}
          {...form.getInputProps("code")}
        />
        <FormError message={serverErrors.message} />
        <Group>
          <Button type="submit" color="red" loading={disable.isPending}>
            Disable
          </Button>
          <Button variant="default" onClick={onCancel} disabled={disable.isPending}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
