import { useProjectContext } from "@/app/routes/project/context";
import { FreezesPanel } from "@/features/freezes/components/freezes-panel";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

/** The project's own freeze windows (the instance's: Admin → Freezes). */
export function Component() {
  const { project } = useProjectContext();
  return (
    <FreezesPanel
      projectId={project.id}
      canWrite={can(project.permissions, PROJECT_ACTIONS.edit)}
    />
  );
}
