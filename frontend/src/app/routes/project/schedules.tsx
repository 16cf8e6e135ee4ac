import { useNavigate } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { SchedulesTable } from "@/features/schedules/components/schedules-table";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  const navigate = useNavigate();
  return (
    <SchedulesTable
      projectId={project.id}
      template={null}
      canWrite={can(project.permissions, PROJECT_ACTIONS.templateWrite)}
      onCreated={(schedule) => void navigate(paths.schedule(project.id, schedule.id))}
    />
  );
}
