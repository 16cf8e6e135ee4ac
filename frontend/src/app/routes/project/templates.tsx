import { useNavigate } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { TemplatesTable } from "@/features/templates/components/templates-table";
import { paths } from "@/lib/paths";

export function Component() {
  const { project } = useProjectContext();
  const navigate = useNavigate();
  return (
    <TemplatesTable
      projectId={project.id}
      onLaunched={(run) => void navigate(paths.project(project.id, `runs/${run.id}`))}
    />
  );
}
