import { Modal } from "@mantine/core";
import type { Schemas } from "@/api/client";
import { QueryState } from "@/components/query-state";
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
      <QueryState query={hosts} loading="Resolving hosts" failed="Could not resolve the inventory">
        {(resolved) => <ResolvedHosts resolved={resolved} />}
      </QueryState>
    </Modal>
  );
}
