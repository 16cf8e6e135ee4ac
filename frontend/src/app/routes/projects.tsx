import { Button, Group, Stack, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { CreateProjectModal } from "@/features/projects/components/create-project-modal";
import { ProjectsTable } from "@/features/projects/components/projects-table";

export function Component() {
  const [creating, create] = useDisclosure(false);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Projects</Title>
        <Button onClick={create.open}>New project</Button>
      </Group>
      <ProjectsTable />
      <CreateProjectModal opened={creating} onClose={create.close} />
    </Stack>
  );
}
