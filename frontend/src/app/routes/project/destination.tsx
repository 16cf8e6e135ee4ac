import { useNavigate, useParams } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { DetailsPage } from "@/components/details-page";
import { DestinationDetails } from "@/features/notifications/components/destination-details";
import { idParam } from "@/lib/id-param";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  const navigate = useNavigate();
  const back = paths.project(project.id, "notifications");
  return (
    <DetailsPage
      id={idParam(useParams().destinationId)}
      notFound="Destination not found"
      back={back}
      backLabel="Notifications"
    >
      {(destinationId) => (
        <DestinationDetails
          projectId={project.id}
          destinationId={destinationId}
          canWrite={can(project.permissions, PROJECT_ACTIONS.resourceWrite)}
          onDeleted={() => void navigate(back)}
        />
      )}
    </DetailsPage>
  );
}
