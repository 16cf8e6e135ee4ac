import { Stack, Title } from "@mantine/core";
import { useNavigate } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { DestinationsTable } from "@/features/notifications/components/destinations-table";
import { SubscriptionsTable } from "@/features/notifications/components/subscriptions-table";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  const navigate = useNavigate();
  const permissions = project.permissions;
  return (
    <Stack gap="xl">
      <Stack>
        <Title order={3}>Destinations</Title>
        <DestinationsTable
          projectId={project.id}
          canWrite={can(permissions, PROJECT_ACTIONS.resourceWrite)}
          onTested={(destination) => void navigate(paths.destination(project.id, destination.id))}
        />
      </Stack>
      <Stack>
        <Title order={3}>Subscriptions</Title>
        <SubscriptionsTable
          projectId={project.id}
          templateId={null}
          scheduleId={null}
          canWriteProject={can(permissions, PROJECT_ACTIONS.resourceWrite)}
          canWriteTemplate={can(permissions, PROJECT_ACTIONS.templateWrite)}
        />
      </Stack>
    </Stack>
  );
}
