import { Alert, Center, Loader, Modal } from "@mantine/core";
import type { Schemas } from "@/api/client";
import { useInventoryHosts } from "@/features/inventories/api/get-inventory-hosts";
import { ResolvedHosts } from "@/features/inventories/components/resolved-hosts";

interface InventoryHostsModalProps {
  projectId: number;
  inventory: Schemas["InventoryRead"];
  onClose: () => void;
}

export function InventoryHostsModal({ projectId, inventory, onClose }: InventoryHostsModalProps) {
  const hosts = useInventoryHosts(projectId, inventory.id);
  return (
    <Modal opened onClose={onClose} title={`Hosts of “${inventory.name}”`} size="xl">
      {hosts.isPending && (
        <Center py="lg">
          <Loader aria-label="Resolving hosts" />
        </Center>
      )}
      {hosts.error && (
        <Alert color="red" title="Could not resolve the inventory">
          {hosts.error.message}
        </Alert>
      )}
      {hosts.data && <ResolvedHosts resolved={hosts.data} />}
    </Modal>
  );
}
