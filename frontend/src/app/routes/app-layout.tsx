import {
  Alert,
  Anchor,
  AppShell,
  Badge,
  Burger,
  Button,
  Center,
  Group,
  Loader,
  Menu,
  NavLink,
  Text,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { Link, Outlet, useLocation, useNavigate, useNavigation } from "react-router";
import { useServerVersion } from "@/api/queries/server";
import { ColorSchemeToggle } from "@/components/color-scheme-toggle";
import { useMe } from "@/features/auth/api/get-me";
import { useLogout } from "@/features/auth/api/logout";
import { useWaitingPlans } from "@/features/plans/api/plans";
import { useWaitingApprovals } from "@/features/workflows/api/get-approvals";
import { badgeLabel } from "@/features/workflows/lib/inbox";
import { paths } from "@/lib/paths";
import classes from "@/app/routes/app-layout.module.css";

/** The foot of the navigation: which Steward this is (what a bug report asks first). */
function ServerVersion() {
  const version = useServerVersion();
  if (!version.data) return null;
  return (
    <Text size="xs" c="dimmed" px="sm" pt="md" mt="auto" data-testid="server-version">
      Steward {version.data}
    </Text>
  );
}

/** The administration pages, in the account menu and the navigation alike. */
const adminPages = [
  { label: "Users", to: paths.adminUsers },
  { label: "Teams", to: paths.adminTeams },
  { label: "Audit", to: paths.adminAudit },
  { label: "Hosts", to: paths.adminHosts },
  { label: "Storage", to: paths.adminStorage },
  { label: "Freezes", to: paths.adminFreezes },
];

function UserMenu({ name, isAdmin, local }: { name: string; isAdmin: boolean; local: boolean }) {
  const logout = useLogout();
  const navigate = useNavigate();
  const signOut = () =>
    logout.mutate(undefined, {
      // a single sign-on session ends at the provider too: it sends the browser back to login
      onSettled: (providerUrl) => {
        if (providerUrl) window.location.assign(providerUrl);
        else void navigate(paths.login(), { replace: true });
      },
    });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" aria-label={`Account: ${name}`}>
          <Text size="sm" truncate maw={140}>
            {name}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={paths.account()}>
          Profile
        </Menu.Item>
        {local && (
          <Menu.Item component={Link} to={paths.account("password")}>
            Change password
          </Menu.Item>
        )}
        <Menu.Item component={Link} to={paths.account("two-factor")}>
          Two-factor
        </Menu.Item>
        <Menu.Item component={Link} to={paths.account("tokens")}>
          API tokens
        </Menu.Item>
        <Menu.Item component={Link} to={paths.account("sessions")}>
          Sessions
        </Menu.Item>
        {isAdmin && (
          <>
            <Menu.Divider />
            <Menu.Label>Administration</Menu.Label>
            {adminPages.map(({ label, to }) => (
              <Menu.Item key={label} component={Link} to={to()}>
                {label}
              </Menu.Item>
            ))}
          </>
        )}
        <Menu.Divider />
        <Menu.Item onClick={signOut} disabled={logout.isPending}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** A page in the navigation, lit while the address is in it (`exact`: is it). */
function PageLink({
  to,
  label,
  exact = false,
  onClick,
}: {
  to: string;
  label: string;
  exact?: boolean;
  onClick: () => void;
}) {
  const { pathname } = useLocation();
  const active = exact ? pathname === to : pathname.startsWith(to);
  return <NavLink component={Link} to={to} label={label} active={active} onClick={onClick} />;
}

/** The approvals inbox in the navigation, with the count of what waits for the user: workflow
 * approval nodes and plans. */
function ApprovalsLink({ active, onClick }: { active: boolean; onClick: () => void }) {
  const nodes = useWaitingApprovals().data?.total;
  const plans = useWaitingPlans(1).data?.total;
  const count = badgeLabel(
    nodes === undefined && plans === undefined ? undefined : (nodes ?? 0) + (plans ?? 0),
  );
  return (
    <NavLink
      component={Link}
      to={paths.approvals()}
      label="Approvals"
      active={active}
      onClick={onClick}
      aria-label={count ? `Approvals: ${count} waiting` : "Approvals"}
      rightSection={
        count && (
          <Badge size="sm" circle={count.length < 3} data-testid="approvals-count">
            {count}
          </Badge>
        )
      }
    />
  );
}

function Shell() {
  const [navOpen, nav] = useDisclosure(false);
  const me = useMe();
  const { pathname } = useLocation();
  const loading = useNavigation().state === "loading";

  if (me.isPending) {
    return (
      <Center mih="100dvh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (me.isError) {
    // a 401 has already sent us to the login page (app/provider.tsx)
    return (
      <Center mih="100dvh" p="md">
        <Alert color="red" title="Could not reach the server">
          {me.error.message}
        </Alert>
      </Center>
    );
  }
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: "sm", collapsed: { mobile: !navOpen } }}
      padding="md"
    >
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navOpen}
              onClick={nav.toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={navOpen ? "Close navigation" : "Open navigation"}
            />
            <Anchor component={Link} to={paths.home()} fw={700} size="lg" underline="never">
              Steward
            </Anchor>
            {loading && <Loader size="xs" aria-label="Loading page" />}
          </Group>
          <Group gap="xs" wrap="nowrap">
            <ColorSchemeToggle />
            <UserMenu
              name={me.data.display_name || me.data.username}
              isAdmin={me.data.is_admin}
              local={me.data.auth_source === "local"}
            />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        <PageLink to={paths.home()} label="Dashboard" exact onClick={nav.close} />
        <PageLink to={paths.projects()} label="Projects" onClick={nav.close} />
        <ApprovalsLink active={pathname.startsWith(paths.approvals())} onClick={nav.close} />
        {me.data.is_admin &&
          adminPages.map(({ label, to }) => (
            <PageLink key={label} to={to()} label={label} onClick={nav.close} />
          ))}
        <PageLink to={paths.account()} label="Your account" onClick={nav.close} />
        <NavLink href="/api/v1/docs" label="API reference" target="_blank" rel="noopener" />
        <ServerVersion />
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

/** Pages behind sign-in: the session (and this tab's CSRF token) comes from useMe; a 401 signs in. */
export function Component() {
  return <Shell />;
}
