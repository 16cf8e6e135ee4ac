import { Alert, Stack, Tabs, Title } from "@mantine/core";
import { useSearchParams } from "react-router";
import { useMe } from "@/features/auth/api/get-me";
import { PasswordForm } from "@/features/auth/components/password-form";
import { ProfileForm } from "@/features/auth/components/profile-form";
import { SessionsPanel } from "@/features/auth/components/sessions-panel";
import { TokensPanel } from "@/features/auth/components/tokens-panel";
import { TwoFactorPanel } from "@/features/auth/components/two-factor-panel";

const ACCOUNT_TABS = ["profile", "password", "two-factor", "tokens", "sessions"] as const;
type AccountTab = (typeof ACCOUNT_TABS)[number];

/** Your account: profile, password, two-factor authentication, API tokens, browser sessions
 * (the tab is in the URL). */
export function Component() {
  const me = useMe();
  const [params, setParams] = useSearchParams();
  const asked = params.get("tab");
  const tab: AccountTab = ACCOUNT_TABS.find((t) => t === asked) ?? "profile";
  if (!me.data) return null; // the layout shows the loader until the user is known
  return (
    <Stack>
      <Title order={2}>Your account</Title>
      <Tabs
        value={tab}
        onChange={(next) => next && setParams(next === "profile" ? {} : { tab: next })}
        keepMounted={false}
      >
        <Tabs.List aria-label="Account sections">
          <Tabs.Tab value="profile">Profile</Tabs.Tab>
          <Tabs.Tab value="password">Password</Tabs.Tab>
          <Tabs.Tab value="two-factor">Two-factor</Tabs.Tab>
          <Tabs.Tab value="tokens">API tokens</Tabs.Tab>
          <Tabs.Tab value="sessions">Sessions</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile" pt="md">
          <ProfileForm user={me.data} />
        </Tabs.Panel>
        <Tabs.Panel value="password" pt="md">
          {me.data.auth_source === "local" ? (
            <PasswordForm />
          ) : (
            <Alert title="Your password is not kept by Steward">
              {me.data.auth_source === "ldap"
                ? "You sign in with your directory (LDAP) password: change it in the directory."
                : "You sign in through your single sign-on provider: change your password there."}
            </Alert>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="two-factor" pt="md">
          {me.data.auth_source === "oidc" ? (
            <Alert title="Two-factor is your provider's">
              You sign in through your single sign-on provider: its multi-factor settings apply.
            </Alert>
          ) : (
            <TwoFactorPanel user={me.data} />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="tokens" pt="md">
          <TokensPanel />
        </Tabs.Panel>
        <Tabs.Panel value="sessions" pt="md">
          <SessionsPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
