import { useProjectContext } from "@/app/routes/project/context";
import { HostsPanel } from "@/features/hosts/components/hosts-panel";

export function Component() {
  const { project } = useProjectContext();
  return <HostsPanel projectId={project.id} />;
}
