import { Button, Group, Stack, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { CreateProjectModal } from "@/features/projects/components/create-project-modal";
import { ProjectsTable } from "@/features/projects/components/projects-table";
import { RunsTable } from "@/features/runs/components/runs-table";

/** The first screen: the projects this user may see, and the latest runs across them. */
export function Component() {
  const [creating, create] = useDisclosure(false);
  return (
    <Stack gap="xl">
      <Stack>
        <Group justify="space-between">
          <Title order={2}>Projects</Title>
          <Button onClick={create.open}>New project</Button>
        </Group>
        <ProjectsTable />
        <CreateProjectModal opened={creating} onClose={create.close} />
      </Stack>
      <Stack>
        <Title order={2}>Recent runs</Title>
        <RunsTable limit={10} pageable={false} />
      </Stack>
    </Stack>
  );
}
