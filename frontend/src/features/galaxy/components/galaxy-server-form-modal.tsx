import { NumberInput, Select, SimpleGrid, Switch, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import type { Schemas } from "@/api/client";
import { FormModal } from "@/components/form-modal";
import { useKeyOptions } from "@/api/queries/project-options";
import { useSaveGalaxyServer } from "@/features/galaxy/api/save-galaxy-server";
import {
  GALAXY_KEY_KINDS,
  type GalaxyServerFormValues,
  galaxyKeyLabel,
  toGalaxyServerBody,
  toGalaxyServerValues,
  validateServerName,
} from "@/features/galaxy/lib/galaxy-server-form";
import { savedThen } from "@/lib/saved";
import { useServerErrors } from "@/lib/form-errors";

type GalaxyServer = Schemas["GalaxyServerRead"];

interface GalaxyServerFormModalProps {
  projectId: number;
  /** null: a new server */
  server: GalaxyServer | null;
  onClose: () => void;
}

export function GalaxyServerFormModal({ projectId, server, onClose }: GalaxyServerFormModalProps) {
  const save = useSaveGalaxyServer(projectId, server?.id ?? null);
  const keys = useKeyOptions(projectId, GALAXY_KEY_KINDS, { label: galaxyKeyLabel });
  const form = useForm<GalaxyServerFormValues>({
    mode: "controlled",
    initialValues: toGalaxyServerValues(server),
    validate: { name: validateServerName },
  });
  const serverErrors = useServerErrors(form);

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    save.mutate(toGalaxyServerBody(values), savedThen("Galaxy server", serverErrors, { onClose }));
  });

  return (
    <FormModal
      onClose={onClose}
      title={server ? `Edit Galaxy server “${server.name}”` : "New Galaxy server"}
      size="lg"
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel={server ? "Save" : "Create server"}
      pending={save.isPending}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Name"
          required
          data-autofocus
          description="Lowercase letters, digits and _"
          spellCheck={false}
          {...form.getInputProps("name")}
        />
        <NumberInput
          label="Position"
          description="Servers are asked in this order, then by name"
          allowDecimal={false}
          allowNegative={false}
          min={0}
          max={1000}
          {...form.getInputProps("position")}
        />
      </SimpleGrid>
      <TextInput label="Description" {...form.getInputProps("description")} />
      <TextInput
        label="URL"
        required
        placeholder="https://galaxy.ansible.com/"
        description="The server's API root; no credentials in it (give a key)"
        spellCheck={false}
        {...form.getInputProps("url")}
      />
      <TextInput
        label="SSO URL"
        placeholder="https://sso.redhat.com/auth/realms/redhat-external/protocol/openid-connect/token"
        description="Optional: the token URL of Red Hat's Automation Hub"
        spellCheck={false}
        {...form.getInputProps("auth_url")}
      />
      <Select
        label="Key"
        description="A token (secret key) or a login and password; none: anonymous"
        placeholder="None"
        clearable
        data={keys.data ?? []}
        nothingFoundMessage="No secret or login and password keys in this project"
        {...form.getInputProps("key_id")}
        onChange={(value) => form.setFieldValue("key_id", value ?? "")}
      />
      <Switch
        label="Validate certificates"
        {...form.getInputProps("validate_certs", { type: "checkbox" })}
      />
    </FormModal>
  );
}
