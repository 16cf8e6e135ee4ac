import {
  Alert,
  Autocomplete,
  Checkbox,
  Fieldset,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMediaQuery } from "@mantine/hooks";
import { type ReactNode, useState } from "react";
import type { Schemas } from "@/api/client";
import { ExtraVarsInput } from "@/components/extra-vars-input";
import { FormModal } from "@/components/form-modal";
import { LabelsInput } from "@/components/labels";
import { FieldHelp } from "@/components/new-in-place";
import {
  useEnvironmentOptions,
  useInventoryOptions,
  useKeyOptions,
  useRepositoryOptions,
} from "@/api/queries/project-options";
import { useAnsibleVenvChoices } from "@/features/templates/api/get-ansible-venvs";
import { usePlaybooks } from "@/features/templates/api/get-playbooks";
import { useSaveTemplate } from "@/features/templates/api/save-template";
import { SurveyEditor } from "@/features/templates/components/survey-editor";
import {
  EXCEPTIONS_MAX,
  exceptionsWarning,
  OVERRIDABLE,
  PREFLIGHT,
  SERVER_VENV,
  type TemplateFormValues,
  toTemplateBody,
  toTemplateValues,
} from "@/features/templates/lib/template-form";
import { VERBOSITY } from "@/lib/launch-form";
import { extraVarsOf } from "@/lib/extra-vars";
import type { CreateInPlace, CreateInPlaceProps } from "@/lib/create-in-place";
import { savedThen } from "@/lib/saved";
import { useServerErrors } from "@/lib/form-errors";

type Template = Schemas["TemplateRead"];
type KeyKind = Schemas["KeyKind"];

/** The key fields and the kinds each takes (the server checks them; this narrows the pickers). */
const KEY_FIELDS = {
  ssh_key_id: ["ssh", "login_password"],
  become_key_id: ["login_password"],
  vault_key_ids: ["vault_password"],
} as const satisfies Record<string, readonly KeyKind[]>;

/** The fields whose "New …" opens a create dialog above the form. */
type AskingField = "repository_id" | "inventory_id" | "environment_id" | keyof typeof KEY_FIELDS;

interface TemplateFormModalProps {
  projectId: number;
  /** null: a new template */
  template: Template | null;
  onClose: () => void;
  /** the dialogs it may open in place to create a repository, an inventory, a key or an
   * environment it needs (from src/app; none: no "New …" links) */
  create?: CreateInPlace;
}

/** Under the playbook: where its choices come from, or why there are none. */
function playbookHelp(repositoryId: string, playbooks: ReturnType<typeof usePlaybooks>): string {
  if (repositoryId === "") return "Pick the repository to choose from its playbooks";
  if (playbooks.isPending) return "Looking for playbooks in the repository…";
  if (playbooks.isError) {
    return `Could not list the repository's playbooks (${playbooks.error.message}); type the path`;
  }
  const found = playbooks.data.playbooks.length;
  if (found === 0) return "No playbook found in the repository; type the path";
  const more = playbooks.data.truncated ? " (the search stopped early: type it if missing)" : "";
  return `${found} found in the repository, or type a path${more}`;
}

export function TemplateFormModal({
  projectId,
  template,
  onClose,
  create = {},
}: TemplateFormModalProps) {
  const phone = useMediaQuery("(max-width: 48em)");
  // the field whose create dialog is open above the form
  const [asking, setAsking] = useState<AskingField | null>(null);
  const save = useSaveTemplate(projectId, template?.id ?? null);
  const repositories = useRepositoryOptions(projectId);
  const inventories = useInventoryOptions(projectId);
  const environments = useEnvironmentOptions(projectId);
  const machineKeys = useKeyOptions(projectId, KEY_FIELDS.ssh_key_id);
  const becomeKeys = useKeyOptions(projectId, KEY_FIELDS.become_key_id);
  const vaultKeys = useKeyOptions(projectId, KEY_FIELDS.vault_key_ids);
  const sourceKeys = useKeyOptions(projectId, ["login_password", "secret"]);
  const venvs = useAnsibleVenvChoices();
  const form = useForm<TemplateFormValues>({
    mode: "controlled",
    initialValues: toTemplateValues(template),
  });
  const serverErrors = useServerErrors(form);
  const playbooks = usePlaybooks(projectId, form.values.repository_id);

  // a Select's clear gives null; the form keeps "" for "none"
  const picker = (field: keyof TemplateFormValues) => ({
    ...form.getInputProps(field),
    onChange: (value: string | null) => form.setFieldValue(field, value ?? ""),
  });

  // "New …" under a field, when src/app handed the dialog of its kind
  const newLink = (field: AskingField, label: string, text?: string) => {
    const thing =
      field === "repository_id"
        ? create.repository
        : field === "inventory_id"
          ? create.inventory
          : field === "environment_id"
            ? create.environment
            : create.key;
    return (
      <FieldHelp text={text} newLabel={thing ? label : undefined} onNew={() => setAsking(field)} />
    );
  };

  // the dialog of the field that asked; what it creates is selected there (a vault key is added)
  const inPlace = (field: AskingField): ReactNode => {
    const props: CreateInPlaceProps = {
      onCreated: (id) => {
        if (field === "vault_key_ids") {
          form.setFieldValue("vault_key_ids", [...form.getValues().vault_key_ids, String(id)]);
        } else {
          form.setFieldValue(field, String(id));
        }
      },
      onClose: () => setAsking(null),
    };
    switch (field) {
      case "repository_id":
        return create.repository?.(props);
      case "inventory_id":
        return create.inventory?.(props);
      case "environment_id":
        return create.environment?.(props);
      default:
        return create.key?.({ ...props, kinds: KEY_FIELDS[field] });
    }
  };

  const venv = form.values.ansible_venv;
  const venvData = venvs.data ?? [];
  // a venv no longer listed by the server still shows as what the template holds
  const venvOptions =
    venv !== "" && !venvData.some((choice) => choice.value === venv)
      ? [
          ...venvData,
          {
            value: venv,
            label: venv,
            disabled: true,
            problem: venvs.data ? "not listed on this server" : null,
          },
        ]
      : venvData;
  const venvProblems = new Map(venvOptions.map((choice) => [choice.value, choice.problem]));

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    const extraVars = extraVarsOf(values.extra_vars, (e) => form.setFieldError("extra_vars", e));
    if (extraVars === null) return;
    save.mutate(
      toTemplateBody(values, extraVars),
      savedThen("Template", serverErrors, { onClose }),
    );
  });

  return (
    <>
      <FormModal
        onClose={onClose}
        covered={asking !== null}
        title={template ? `Edit template “${template.name}”` : "New template"}
        size="xl"
        fullScreen={phone}
        onSubmit={submit}
        error={serverErrors.message}
        submitLabel={template ? "Save" : "Create template"}
        pending={save.isPending}
      >
        <Fieldset legend="Playbook">
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Name" required data-autofocus {...form.getInputProps("name")} />
              <Autocomplete
                label="Playbook"
                required
                placeholder="playbooks/site.yml"
                description={playbookHelp(form.values.repository_id, playbooks)}
                data={playbooks.data?.playbooks ?? []}
                limit={200}
                maxDropdownHeight={280}
                spellCheck={false}
                {...form.getInputProps("playbook")}
              />
            </SimpleGrid>
            <TextInput label="Description" {...form.getInputProps("description")} />
            <LabelsInput
              label="Labels"
              description="Freeze windows with labels freeze the templates carrying one of them"
              placeholder="prod, db…"
              {...form.getInputProps("labels")}
            />
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Select
                label="Repository"
                required
                placeholder="Pick one"
                data={repositories.data ?? []}
                nothingFoundMessage="No repositories yet"
                description={newLink("repository_id", "New repository")}
                {...picker("repository_id")}
              />
              <Select
                label="Inventory"
                required
                placeholder="Pick one"
                data={inventories.data ?? []}
                nothingFoundMessage="No inventories yet"
                description={newLink("inventory_id", "New inventory")}
                {...picker("inventory_id")}
              />
              <Select
                label="Environment"
                placeholder="None"
                clearable
                description={newLink("environment_id", "New environment")}
                data={environments.data ?? []}
                {...picker("environment_id")}
              />
            </SimpleGrid>
          </Stack>
        </Fieldset>

        <Fieldset legend="Credentials">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select
              label="Machine key"
              description={newLink(
                "ssh_key_id",
                "New machine key",
                "SSH key, or login and password",
              )}
              placeholder="None"
              clearable
              data={machineKeys.data ?? []}
              {...picker("ssh_key_id")}
            />
            <Select
              label="Become key"
              description={newLink(
                "become_key_id",
                "New become key",
                "Login and password for sudo",
              )}
              placeholder="None"
              clearable
              data={becomeKeys.data ?? []}
              {...picker("become_key_id")}
            />
            <MultiSelect
              label="Vault passwords"
              description={newLink("vault_key_ids", "New vault password", "One per vault ID")}
              placeholder="None"
              data={vaultKeys.data ?? []}
              {...form.getInputProps("vault_key_ids")}
            />
          </SimpleGrid>
        </Fieldset>

        <Fieldset legend="Run options">
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput label="Limit" placeholder="all" {...form.getInputProps("limit")} />
              <TextInput label="Tags" {...form.getInputProps("tags")} />
              <TextInput label="Skip tags" {...form.getInputProps("skip_tags")} />
              <Select
                label="Verbosity"
                data={VERBOSITY}
                allowDeselect={false}
                {...form.getInputProps("verbosity")}
              />
              <NumberInput
                label="Forks"
                placeholder="Ansible's default"
                allowDecimal={false}
                min={1}
                max={200}
                {...form.getInputProps("forks")}
              />
              <NumberInput
                label="Timeout (seconds)"
                placeholder="The server's default"
                allowDecimal={false}
                min={1}
                {...form.getInputProps("timeout_seconds")}
              />
            </SimpleGrid>
            <Group>
              <Switch
                label="Check mode (dry run)"
                {...form.getInputProps("check_mode", { type: "checkbox" })}
              />
              <Switch
                label="Diff mode"
                {...form.getInputProps("diff_mode", { type: "checkbox" })}
              />
            </Group>
            <ExtraVarsInput {...form.getInputProps("extra_vars")} />
          </Stack>
        </Fieldset>

        <Fieldset legend="Ansible">
          <SimpleGrid cols={{ base: 1, sm: 2 }} verticalSpacing="sm">
            <Select
              label="Ansible environment"
              description="Whose ansible-playbook and ansible-galaxy run it"
              data={venvOptions}
              allowDeselect={false}
              value={venv === "" ? SERVER_VENV : venv}
              onChange={(value) =>
                form.setFieldValue("ansible_venv", !value || value === SERVER_VENV ? "" : value)
              }
              error={form.errors.ansible_venv}
              renderOption={({ option }) => {
                const problem = venvProblems.get(option.value);
                return (
                  <Stack gap={0}>
                    <Text size="sm">{option.label}</Text>
                    {problem && (
                      <Text size="xs" c="red">
                        {problem}
                      </Text>
                    )}
                  </Stack>
                );
              }}
            />
            <Switch
              mt={{ sm: "xl" }}
              label="Install requirements"
              description="The repository's requirements.yml files (roles, collections), before each run"
              {...form.getInputProps("install_requirements", { type: "checkbox" })}
            />
            <Switch
              label="Use the stored facts"
              description="Runs start with the facts earlier runs gathered on these hosts, as Ansible's fact cache: a play with gather_facts: false still sees ansible_facts"
              {...form.getInputProps("use_fact_cache", { type: "checkbox" })}
            />
          </SimpleGrid>
        </Fieldset>

        <Fieldset legend="Pre-flight">
          <Select
            label="Before a run, check its hosts on the port Ansible uses"
            description="TCP connect and SSH banner to ansible_host:ansible_port; with “leave out”, a run goes on without the hosts that fail and says why on its page (all fail: the run fails)"
            data={PREFLIGHT}
            allowDeselect={false}
            {...form.getInputProps("preflight")}
          />
        </Fieldset>

        <Fieldset legend="Plans">
          <Stack gap="sm">
            <Switch
              label="May be launched as a plan"
              description="A run in check and diff mode that says what would change on which host; its apply runs exactly what was planned, or is refused when anything moved"
              {...form.getInputProps("plans_allowed", { type: "checkbox" })}
            />
            <Switch
              label="Plans need another person's approval"
              description="Before its apply, someone else who may approve plans (plan:approve) reviews the plan"
              disabled={!form.getValues().plans_allowed}
              {...form.getInputProps("plan_approval", { type: "checkbox" })}
            />
          </Stack>
        </Fieldset>

        <Fieldset legend="What a launch may change">
          <Checkbox.Group
            aria-label="What a launch may change"
            {...form.getInputProps("overridable")}
          >
            <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
              {OVERRIDABLE.map((field) => (
                <Checkbox key={field.value} value={field.value} label={field.label} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <TagsInput
            mt="sm"
            label="Ansible settings launch values may set"
            description={
              "Launch values may not set ansible_* variables, connection, become or shell" +
              " plugin variables, nor magic variables like hostvars; list a name here only if" +
              " the playbook needs it from whoever launches"
            }
            placeholder="ansible_…"
            maxTags={EXCEPTIONS_MAX}
            {...form.getInputProps("launch_var_exceptions")}
          />
          {exceptionsWarning(form.values.launch_var_exceptions) && (
            <Alert mt="sm" color="orange" title="Launchers can change how Ansible runs">
              {exceptionsWarning(form.values.launch_var_exceptions)}
            </Alert>
          )}
        </Fieldset>

        <Fieldset legend="Survey">
          <SurveyEditor form={form} keys={sourceKeys.data ?? []} />
        </Fieldset>
      </FormModal>
      {asking && inPlace(asking)}
    </>
  );
}
