import { Alert, Anchor, Stack } from "@mantine/core";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { WebhookDetails } from "@/features/webhooks/components/webhook-details";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const webhookId = Number(useParams().webhookId);
  if (!Number.isSafeInteger(webhookId) || webhookId < 1) {
    return <Alert color="yellow" title="Webhook not found" />;
  }
  // the delivery drawer is in the URL (?delivery=<id>), so a delivery can be linked to
  const deliveryParam = Number(searchParams.get("delivery"));
  const deliveryId =
    Number.isSafeInteger(deliveryParam) && deliveryParam > 0 ? deliveryParam : null;
  const openDelivery = (id: number | null) =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      if (id === null) next.delete("delivery");
      else next.set("delivery", String(id));
      return next;
    });
  const back = paths.project(project.id, "webhooks");
  return (
    <Stack key={webhookId}>
      <Anchor component={Link} to={back} size="sm">
        ← All webhooks
      </Anchor>
      <WebhookDetails
        projectId={project.id}
        webhookId={webhookId}
        canWrite={can(project.permissions, PROJECT_ACTIONS.templateWrite)}
        canLaunch={can(project.permissions, PROJECT_ACTIONS.runLaunch)}
        deliveryId={deliveryId}
        onOpenDelivery={openDelivery}
        onDeleted={() => void navigate(back)}
      />
    </Stack>
  );
}
