import { Alert, Center, Loader, Modal } from "@mantine/core";
import type { Schemas } from "@/api/client";
import { useTemplate } from "@/api/queries/project-options";
import { LaunchModal } from "@/features/templates/components/launch-modal";

interface LaunchFromUrlProps {
  projectId: number;
  templateId: number;
  onClose: () => void;
  onLaunched: (run: Schemas["RunRead"]) => void;
}

/** The launch dialog of a link (`?launch=<id>`): the template is loaded, or the server says why not. */
export function LaunchFromUrl({ projectId, templateId, onClose, onLaunched }: LaunchFromUrlProps) {
  const template = useTemplate(projectId, templateId);
  if (template.data) {
    return (
      <LaunchModal
        projectId={projectId}
        template={template.data}
        onClose={onClose}
        onLaunched={onLaunched}
      />
    );
  }
  return (
    <Modal opened onClose={onClose} title="Launch">
      {template.isPending ? (
        <Center py="lg">
          <Loader aria-label="Loading template" />
        </Center>
      ) : (
        <Alert color="red" title="Cannot launch this template">
          {template.error?.message}
        </Alert>
      )}
    </Modal>
  );
}
