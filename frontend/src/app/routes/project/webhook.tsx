import { useNavigate, useParams, useSearchParams } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { DetailsPage } from "@/components/details-page";
import { WebhookDetails } from "@/features/webhooks/components/webhook-details";
import { idParam } from "@/lib/id-param";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  // the delivery drawer is in the URL (?delivery=<id>), so a delivery can be linked to
  const deliveryId = idParam(searchParams.get("delivery"));
  const openDelivery = (id: number | null) =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      if (id === null) next.delete("delivery");
      else next.set("delivery", String(id));
      return next;
    });
  const back = paths.project(project.id, "webhooks");
  return (
    <DetailsPage
      id={idParam(useParams().webhookId)}
      notFound="Webhook not found"
      back={back}
      backLabel="All webhooks"
    >
      {(webhookId) => (
        <WebhookDetails
          projectId={project.id}
          webhookId={webhookId}
          canWrite={can(project.permissions, PROJECT_ACTIONS.templateWrite)}
          canLaunch={can(project.permissions, PROJECT_ACTIONS.runLaunch)}
          deliveryId={deliveryId}
          onOpenDelivery={openDelivery}
          onDeleted={() => void navigate(back)}
        />
      )}
    </DetailsPage>
  );
}
