import { useNavigate } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { WebhooksTable } from "@/features/webhooks/components/webhooks-table";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  const navigate = useNavigate();
  const permissions = project.permissions;
  return (
    <WebhooksTable
      projectId={project.id}
      templateId={null}
      // whoever saves a webhook must be allowed to launch what it launches
      canWrite={
        can(permissions, PROJECT_ACTIONS.templateWrite) &&
        can(permissions, PROJECT_ACTIONS.runLaunch)
      }
      onCreated={(webhook) => void navigate(paths.webhook(project.id, webhook.id))}
    />
  );
}
