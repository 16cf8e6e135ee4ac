import { Alert, Button, Code, Group, List, Stack, Text, Textarea, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { FormError } from "@/components/form-error";
import { useSetLocalRoots } from "@/features/projects/api/set-local-roots";

/** One directory a line; blank lines and surrounding spaces are left out. */
export function parseLocalRoots(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

interface LocalRootsPanelProps {
  project: Schemas["ProjectRead"];
  /** only an admin assigns them; everyone else sees them */
  isAdmin: boolean;
}

/**
 * Where the project's local repositories and git file:// URLs may be on the server: a manager
 * can pick only inside these, an admin assigns them (each inside STEWARD_LOCAL_REPOSITORY_ROOTS).
 */
export function LocalRootsPanel({ project, isAdmin }: LocalRootsPanelProps) {
  const roots = project.local_roots;
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Local directories
      </Title>
      <Text size="sm" c="dimmed">
        Local repositories and git <Code>file://</Code> URLs of this project must be inside one of
        these directories of the server; no other project&apos;s. Only an admin assigns them, each
        inside the server&apos;s <Code>STEWARD_LOCAL_REPOSITORY_ROOTS</Code>.
      </Text>
      {isAdmin ? (
        <LocalRootsForm projectId={project.id} roots={roots} />
      ) : roots.length > 0 ? (
        <List size="sm" aria-label="Local directories">
          {roots.map((root) => (
            <List.Item key={root}>
              <Code>{root}</Code>
            </List.Item>
          ))}
        </List>
      ) : (
        <Alert color="gray" variant="light">
          None assigned: this project cannot use local repositories or <Code>file://</Code> URLs. An
          admin assigns its directories here.
        </Alert>
      )}
    </Stack>
  );
}

function LocalRootsForm({ projectId, roots }: { projectId: number; roots: string[] }) {
  const save = useSetLocalRoots(projectId);
  const [text, setText] = useState(roots.join("\n"));
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setError(null);
        save.mutate(parseLocalRoots(text), {
          onSuccess: (saved) =>
            notifications.show({
              color: "green",
              message: `Local directories of “${saved.name}” saved`,
            }),
          onError: (failure) => setError(failure.message),
        });
      }}
    >
      <Stack gap="xs">
        <Textarea
          label="Directories (admins only)"
          description="Absolute paths, one a line. Repositories outside them stop working, with the reason."
          autosize
          minRows={2}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
        />
        <FormError message={error} />
        <Group>
          <Button type="submit" variant="default" loading={save.isPending}>
            Save directories
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
