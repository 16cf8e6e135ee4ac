import { Alert, Button, Group, Paper, Select, Text, TextInput } from "@mantine/core";
import { LabelledSegments } from "@/components/labelled-segments";
import { NameDescriptionFields } from "@/components/name-description-fields";
import { useForm } from "@mantine/form";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { CodeTextarea } from "@/components/code-textarea";
import { FormModal } from "@/components/form-modal";
import { FieldHelp } from "@/components/new-in-place";
import { useRepositoryOptions } from "@/api/queries/project-options";
import { usePreviewInventory } from "@/features/inventories/api/preview-inventory";
import { type InventoryCreate, useSaveInventory } from "@/features/inventories/api/save-inventory";
import { ResolvedHosts } from "@/features/inventories/components/resolved-hosts";
import type { CreateInPlace } from "@/lib/create-in-place";
import { savedThen } from "@/lib/saved";
import { useServerErrors } from "@/lib/form-errors";

type Inventory = Schemas["InventoryRead"];
type Kind = Schemas["InventoryKind"];
type Format = Schemas["InventoryFormat"];

interface InventoryFormValues {
  name: string;
  description: string;
  kind: Kind;
  format: Format;
  content: string;
  repository_id: string;
  path: string;
  metrics_endpoint: string;
}

const PLACEHOLDER: Record<Format, string> = {
  ini: "[db]\ndb1.example.com ansible_user=postgres\ndb2.example.com\n\n[web]\nweb1.example.com",
  yaml: "all:\n  children:\n    db:\n      hosts:\n        db1.example.com:\n          ansible_user: postgres",
};

/** Only the fields of the chosen kind (the server refuses the others). */
export function toInventoryBody(v: InventoryFormValues): InventoryCreate {
  const common = {
    name: v.name,
    description: v.description,
    kind: v.kind,
    metrics_endpoint: v.metrics_endpoint,
  };
  if (v.kind === "static") return { ...common, format: v.format, content: v.content };
  return {
    ...common,
    content: "",
    repository_id: v.repository_id === "" ? null : Number(v.repository_id),
    path: v.path,
  };
}

interface InventoryFormModalProps {
  projectId: number;
  /** null: a new inventory */
  inventory: Inventory | null;
  onClose: () => void;
  /** the saved inventory, before the dialog closes (a form that asked for it selects it) */
  onSaved?: (inventory: Inventory) => void;
  /** the repository dialog it may open in place (a file or plugin inventory reads one) */
  create?: Pick<CreateInPlace, "repository">;
}

export function InventoryFormModal({
  projectId,
  inventory,
  onClose,
  onSaved,
  create,
}: InventoryFormModalProps) {
  // the repository dialog opened from the repository field, above this one
  const [newRepository, setNewRepository] = useState(false);
  const save = useSaveInventory(projectId, inventory?.id ?? null);
  const preview = usePreviewInventory(projectId);
  const form = useForm<InventoryFormValues>({
    mode: "controlled",
    initialValues: {
      name: inventory?.name ?? "",
      description: inventory?.description ?? "",
      kind: inventory?.kind ?? "static",
      format: inventory?.format ?? "ini",
      content: inventory?.content ?? "",
      repository_id: inventory?.repository_id == null ? "" : String(inventory.repository_id),
      path: inventory?.path ?? "",
      metrics_endpoint: inventory?.metrics_endpoint ?? "",
    },
    // a preview of other text than what is shown would mislead
    onValuesChange: (values, previous) => {
      if (values.content !== previous.content || values.format !== previous.format) preview.reset();
    },
  });
  const serverErrors = useServerErrors(form);
  const { kind, format } = form.values;
  const repositories = useRepositoryOptions(projectId, kind !== "static");

  const showPreview = () => {
    serverErrors.clear();
    const { content } = form.getValues();
    form.clearFieldError("content");
    preview.mutate({ format, content }, { onError: (error) => serverErrors.show(error) });
  };

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    save.mutate(
      toInventoryBody(values),
      savedThen("Inventory", serverErrors, { onClose, onSaved }),
    );
  });

  return (
    <>
      <FormModal
        onClose={onClose}
        covered={newRepository}
        title={inventory ? `Edit inventory “${inventory.name}”` : "New inventory"}
        size="xl"
        onSubmit={submit}
        error={serverErrors.message}
        submitLabel={inventory ? "Save" : "Create inventory"}
        pending={save.isPending}
      >
        <NameDescriptionFields form={form} lines="one" />
        <LabelledSegments
          label="Kind"
          data={[
            { value: "static", label: "Static text" },
            { value: "file", label: "File in a repository" },
            { value: "plugin", label: "Plugin or script" },
          ]}
          {...form.getInputProps("kind")}
        />
        {kind === "static" ? (
          <>
            <LabelledSegments
              label="Format"
              data={[
                { value: "ini", label: "INI" },
                { value: "yaml", label: "YAML" },
              ]}
              {...form.getInputProps("format")}
            />
            <CodeTextarea
              label="Content"
              description="Parsed by ansible-inventory when saved"
              placeholder={PLACEHOLDER[format]}
              {...form.getInputProps("content")}
            />
            <Group>
              <Button variant="light" onClick={showPreview} loading={preview.isPending}>
                Preview hosts
              </Button>
              {preview.isSuccess && (
                <Text size="xs" c="dimmed">
                  As Ansible sees this text; secret-looking variables are masked.
                </Text>
              )}
            </Group>
            {preview.data && (
              <Paper withBorder p="sm" aria-label="Preview">
                <ResolvedHosts resolved={preview.data} />
              </Paper>
            )}
          </>
        ) : (
          <>
            <Select
              label="Repository"
              required
              placeholder="Pick a repository"
              data={repositories.data ?? []}
              nothingFoundMessage="No repositories in this project"
              description={
                <FieldHelp
                  newLabel={create?.repository ? "New repository" : undefined}
                  onNew={() => setNewRepository(true)}
                />
              }
              {...form.getInputProps("repository_id")}
              onChange={(value) => form.setFieldValue("repository_id", value ?? "")}
            />
            <TextInput
              label="Path"
              required
              description={
                kind === "file"
                  ? "An inventory file in the repository, e.g. inventories/prod.ini"
                  : "A plugin config (…/aws_ec2.yml) or an executable script in the repository"
              }
              spellCheck={false}
              {...form.getInputProps("path")}
            />
            {inventory && (
              <Alert variant="light" color="gray">
                Its hosts are listed from the saved inventory (the Hosts button in the table).
              </Alert>
            )}
          </>
        )}
        <TextInput
          label="Host metrics endpoint"
          description="The pmproxy (PCP) of each host, sampled during runs, e.g. http://{host}:44322 ({host}: its address). Empty: the hosts are not sampled; a host variable steward_pmproxy_url overrides it."
          placeholder="http://{host}:44322"
          spellCheck={false}
          {...form.getInputProps("metrics_endpoint")}
        />
      </FormModal>
      {newRepository &&
        create?.repository?.({
          onCreated: (id) => form.setFieldValue("repository_id", String(id)),
          onClose: () => setNewRepository(false),
        })}
    </>
  );
}
