import type { Schemas } from "@/api/client";
import { EnvironmentFormModal } from "@/features/environments/components/environment-form-modal";
import { InventoryFormModal } from "@/features/inventories/components/inventory-form-modal";
import { CreateKeyModal } from "@/features/keys/components/create-key-modal";
import { RepositoryFormModal } from "@/features/repositories/components/repository-form-modal";
import type { CreateInPlace } from "@/lib/create-in-place";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

/**
 * The create dialogs a form may open in place for what it needs, each the feature's own create
 * form: a template's repository, inventory, keys and environment; a repository's key; an
 * inventory's repository (whose key in turn); an environment's secret keys. None for who may not create resources.
 */
export function createInPlace(project: Schemas["ProjectRead"]): CreateInPlace {
  if (!can(project.permissions, PROJECT_ACTIONS.resourceWrite)) return {};
  const projectId = project.id;
  const key: CreateInPlace["key"] = ({ kinds, onCreated, onClose }) => (
    <CreateKeyModal
      projectId={projectId}
      opened
      kinds={kinds}
      onCreated={(created) => onCreated(created.id)}
      onClose={onClose}
    />
  );
  const repository: CreateInPlace["repository"] = ({ onCreated, onClose }) => (
    <RepositoryFormModal
      projectId={projectId}
      repository={null}
      localRoots={project.local_roots}
      create={{ key }}
      onSaved={(saved) => onCreated(saved.id)}
      onClose={onClose}
    />
  );
  const inventory: CreateInPlace["inventory"] = ({ onCreated, onClose }) => (
    <InventoryFormModal
      projectId={projectId}
      inventory={null}
      create={{ repository }}
      onSaved={(saved) => onCreated(saved.id)}
      onClose={onClose}
    />
  );
  const environment: CreateInPlace["environment"] = ({ onCreated, onClose }) => (
    <EnvironmentFormModal
      projectId={projectId}
      environment={null}
      create={{ key }}
      onSaved={(saved) => onCreated(saved.id)}
      onClose={onClose}
    />
  );
  return { key, repository, inventory, environment };
}
