import { Button, Divider } from "@mantine/core";
import { useSearchParams } from "react-router";
import { useProviders } from "@/features/auth/api/get-providers";
import { ssoUrl } from "@/features/auth/lib/sso-url";

/**
 * "Sign in with …": shown when the server has single sign-on (OpenID Connect). A plain link:
 * the browser goes to the server, then to the provider, and comes back signed in. Nothing is
 * shown while the server has not answered, or when it has no provider.
 */
export function SsoButton() {
  const providers = useProviders();
  const [searchParams] = useSearchParams();
  const oidc = providers.data?.oidc;
  if (!oidc) return null;
  return (
    <>
      <Divider label="or" labelPosition="center" my="md" />
      <Button
        component="a"
        href={ssoUrl(oidc.login_url, searchParams.get("next"))}
        variant="default"
        fullWidth
      >
        {oidc.label}
      </Button>
    </>
  );
}
