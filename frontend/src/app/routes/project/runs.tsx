import { Stack } from "@mantine/core";
import { ComparePicker, useRunPicks } from "@/app/routes/project/compare-picker";
import { useProjectContext } from "@/app/routes/project/context";
import { RunsFilters } from "@/features/runs/components/runs-filters";
import { RunsTable } from "@/features/runs/components/runs-table";
import { useRunFilters } from "@/features/runs/hooks/use-run-filters";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  const { filters, values, setValues } = useRunFilters();
  const picks = useRunPicks();
  return (
    <Stack>
      <RunsFilters projectId={project.id} />
      <ComparePicker projectId={project.id} picks={picks} />
      <RunsTable
        projectId={project.id}
        filters={filters}
        selection={picks}
        canLabel={can(project.permissions, PROJECT_ACTIONS.runLaunch)}
        onValue={(v) => setValues({ values: [...values.values, `${v.name}:${v.value}`] })}
      />
    </Stack>
  );
}
