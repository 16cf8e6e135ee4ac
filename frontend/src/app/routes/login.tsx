import { Box, Container, Group, Paper, Text, Title } from "@mantine/core";
import { useNavigate, useSearchParams } from "react-router";
import { ColorSchemeToggle } from "@/components/color-scheme-toggle";
import { LoginForm } from "@/features/auth/components/login-form";
import { paths } from "@/lib/paths";

/** Only paths of this console: `next=//evil.example` must not send anyone away. */
function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") ? next : paths.home();
}

export function Component() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const next = safeNext(searchParams.get("next"));
  return (
    <Box mih="100dvh" py="xl">
      <Group justify="flex-end" px="md">
        <ColorSchemeToggle />
      </Group>
      <Container size={420} mt="8vh">
        <Title ta="center" order={1}>
          Steward
        </Title>
        <Text c="dimmed" size="sm" ta="center" mt={5}>
          Run Ansible playbooks as a team
        </Text>
        <Paper withBorder shadow="sm" p="xl" mt="xl" radius="md">
          <LoginForm onSignedIn={() => void navigate(next, { replace: true })} />
        </Paper>
      </Container>
    </Box>
  );
}
