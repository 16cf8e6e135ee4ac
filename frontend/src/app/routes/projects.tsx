import { Button, Group, Stack, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useMe } from "@/features/auth/api/get-me";
import { CreateProjectModal } from "@/features/projects/components/create-project-modal";
import { ImportProjectModal } from "@/features/projects/components/import-project-modal";
import { ProjectsTable } from "@/features/projects/components/projects-table";
import { RunsTable } from "@/features/runs/components/runs-table";

/** The first screen: the projects this user may see, and the latest runs across them. */
export function Component() {
  const [creating, create] = useDisclosure(false);
  const [importing, importer] = useDisclosure(false);
  // only admins create projects (the API answers 403 to anyone else)
  const canCreate = useMe().data?.is_admin ?? false;
  return (
    <Stack gap="xl">
      <Stack>
        <Group justify="space-between">
          <Title order={2}>Projects</Title>
          {canCreate && (
            <Group gap="xs">
              <Button variant="default" onClick={importer.open}>
                Import project
              </Button>
              <Button onClick={create.open}>New project</Button>
            </Group>
          )}
        </Group>
        <ProjectsTable canCreate={canCreate} />
        {canCreate && <CreateProjectModal opened={creating} onClose={create.close} />}
        {canCreate && <ImportProjectModal opened={importing} onClose={importer.close} />}
      </Stack>
      <Stack>
        <Title order={2}>Recent runs</Title>
        <RunsTable limit={10} pageable={false} />
      </Stack>
    </Stack>
  );
}
