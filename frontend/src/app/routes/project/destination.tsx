import { Alert, Anchor, Stack } from "@mantine/core";
import { Link, useNavigate, useParams } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { DestinationDetails } from "@/features/notifications/components/destination-details";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  const navigate = useNavigate();
  const destinationId = Number(useParams().destinationId);
  if (!Number.isSafeInteger(destinationId) || destinationId < 1) {
    return <Alert color="yellow" title="Destination not found" />;
  }
  const back = paths.project(project.id, "notifications");
  return (
    <Stack key={destinationId}>
      <Anchor component={Link} to={back} size="sm">
        ← Notifications
      </Anchor>
      <DestinationDetails
        projectId={project.id}
        destinationId={destinationId}
        canWrite={can(project.permissions, PROJECT_ACTIONS.resourceWrite)}
        onDeleted={() => void navigate(back)}
      />
    </Stack>
  );
}
