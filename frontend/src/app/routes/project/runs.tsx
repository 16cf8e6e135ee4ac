import { Stack } from "@mantine/core";
import { useProjectContext } from "@/app/routes/project/context";
import { RunsFilters } from "@/features/runs/components/runs-filters";
import { RunsTable } from "@/features/runs/components/runs-table";
import { useRunFilters } from "@/features/runs/hooks/use-run-filters";

export function Component() {
  const { project } = useProjectContext();
  const { filters } = useRunFilters();
  return (
    <Stack>
      <RunsFilters projectId={project.id} />
      <RunsTable projectId={project.id} filters={filters} />
    </Stack>
  );
}
