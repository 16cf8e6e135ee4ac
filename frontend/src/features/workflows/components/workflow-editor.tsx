import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import type { FieldError } from "@/api/errors";
import { FormError } from "@/components/form-error";
import { useTemplates } from "@/api/queries/project-options";
import { useSaveWorkflow } from "@/features/workflows/api/save-workflow";
import { NodeLaunchModal } from "@/features/workflows/components/node-launch-modal";
import { WorkflowGraph } from "@/features/workflows/components/workflow-graph";
import type { GraphEdge } from "@/features/workflows/lib/graph";
import {
  describeLaunch,
  indexNodeErrors,
  nodeLaunchErrors,
} from "@/features/workflows/lib/node-launch";
import {
  bodyOf,
  checkDraft,
  draftOf,
  launchOf,
  launchesTemplate,
  newNode,
  planNodeKeys,
  withoutNode,
  type WorkflowDraft,
} from "@/features/workflows/lib/workflow-form";
import { nodeLabel } from "@/features/workflows/lib/node-run";
import { useServerErrors } from "@/lib/form-errors";

interface WorkflowEditorProps {
  projectId: number;
  /** null: a new workflow */
  workflow: Schemas["WorkflowRead"] | null;
  onSaved: (saved: Schemas["WorkflowRead"]) => void;
  onCancel?: () => void;
}

const KINDS = [
  { value: "template", label: "Template run" },
  { value: "approval", label: "Approval" },
  { value: "plan", label: "Plan (check + diff)" },
  { value: "apply", label: "Apply a plan" },
];
const ON = [
  { value: "success", label: "on success" },
  { value: "failure", label: "on failure" },
  { value: "always", label: "always" },
];

/**
 * Nodes and edges as two lists of rows, the graph drawn beside them as it is typed. What the
 * server would refuse is shown on its field before sending; a 422 lands on the same field (a
 * node's launch values: on the node, and on the field of its launch values dialog).
 */
export function WorkflowEditor({ projectId, workflow, onSaved, onCancel }: WorkflowEditorProps) {
  const templates = useTemplates(projectId);
  const save = useSaveWorkflow(projectId, workflow?.id ?? null);
  const form = useForm<WorkflowDraft>({ initialValues: draftOf(workflow), validate: checkDraft });
  const server = useServerErrors(form);
  const values = form.getValues();
  const keys = values.nodes.map((n) => n.key).filter(Boolean);
  const templateData = (templates.data ?? []).map((t) => ({ value: String(t.id), label: t.name }));
  // a plan node's template must allow plans (the server says so too)
  const planData = (templates.data ?? [])
    .filter((t) => t.plans_allowed)
    .map((t) => ({ value: String(t.id), label: t.name }));
  const planKeys = planNodeKeys(values.nodes);
  const names = new Map(templateData.map((t) => [t.value, t.label]));
  const byId = new Map((templates.data ?? []).map((t) => [String(t.id), t]));
  // the node whose launch values dialog is open, and the last save's errors about them
  const [editing, setEditing] = useState<number | null>(null);
  const [launchErrors, setLaunchErrors] = useState(new Map<number, FieldError[]>());
  const editedNode = editing === null ? undefined : values.nodes[editing];
  const editedTemplate = editedNode ? byId.get(editedNode.template_id ?? "") : undefined;

  const submit = form.onSubmit((draft) => {
    server.clear();
    setLaunchErrors(new Map());
    save.mutate(bodyOf(draft), {
      onSuccess: (saved) => {
        notifications.show({ color: "green", message: `Workflow “${saved.name}” saved` });
        onSaved(saved);
      },
      onError: (error) => {
        const indexed = indexNodeErrors(
          error,
          draft.nodes.map((n) => n.key),
        );
        server.show(indexed);
        setLaunchErrors(nodeLaunchErrors(indexed));
      },
    });
  });

  const forget = (index: number) =>
    setLaunchErrors((errors) => new Map([...errors].filter(([i]) => i !== index)));
  const pickTemplate = (index: number, value: string | null) => {
    if (value === form.getValues().nodes[index]?.template_id) return;
    // another template's launch values mean nothing to this one
    form.setFieldValue(`nodes.${index}.template_id`, value);
    form.setFieldValue(`nodes.${index}.launch`, null);
    forget(index);
  };

  const addEdge = () => {
    const [from = "", to = ""] = keys.length >= 2 ? keys.slice(-2) : [keys[0] ?? "", ""];
    form.insertListItem("edges", { from, to, on: "success" } satisfies GraphEdge);
  };

  return (
    <>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Group grow align="flex-start" wrap="wrap">
            <TextInput label="Name" required miw={200} {...form.getInputProps("name")} />
            <Textarea
              label="Description"
              autosize
              minRows={1}
              miw={200}
              {...form.getInputProps("description")}
            />
          </Group>

          <Title order={4}>Nodes</Title>
          <FormError message={typeof form.errors.nodes === "string" ? form.errors.nodes : null} />
          {values.nodes.length === 0 && (
            <Text size="sm" c="dimmed">
              No nodes yet: add a template run or an approval.
            </Text>
          )}
          {values.nodes.map((node, i) => (
            <Paper
              key={form.key(`nodes.${i}`)}
              withBorder
              p="sm"
              role="group"
              aria-label={`Node ${i + 1}`}
            >
              <Group align="flex-end" wrap="wrap" gap="sm">
                <TextInput label="Key" w={160} required {...form.getInputProps(`nodes.${i}.key`)} />
                <Select
                  label="Kind"
                  w={150}
                  data={KINDS}
                  allowDeselect={false}
                  {...form.getInputProps(`nodes.${i}.kind`)}
                />
                {launchesTemplate(node.kind) ? (
                  <Select
                    label={node.kind === "plan" ? "Template to plan" : "Template"}
                    w={220}
                    searchable
                    data={node.kind === "plan" ? planData : templateData}
                    placeholder={templates.isPending ? "Loading…" : "Pick a template"}
                    {...form.getInputProps(`nodes.${i}.template_id`)}
                    onChange={(value) => pickTemplate(i, value)}
                  />
                ) : node.kind === "apply" ? (
                  <Select
                    label="Plan node"
                    description="applies this node's plan, bound to it"
                    w={220}
                    data={planKeys}
                    placeholder={planKeys.length ? "Pick a plan node" : "Add a plan node first"}
                    {...form.getInputProps(`nodes.${i}.plan_node`)}
                  />
                ) : (
                  <>
                    <TextInput
                      label="Question"
                      w={220}
                      maxLength={100}
                      {...form.getInputProps(`nodes.${i}.name`)}
                    />
                    <NumberInput
                      label="Timeout (s)"
                      description="empty: waits forever"
                      w={140}
                      min={0}
                      max={2592000}
                      allowDecimal={false}
                      {...form.getInputProps(`nodes.${i}.timeout_seconds`)}
                    />
                  </>
                )}
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove node ${node.key || i + 1}`}
                  onClick={() => {
                    form.setValues(withoutNode(form.getValues(), i));
                    setLaunchErrors(new Map()); // by index: they would name other nodes
                  }}
                  mb={4}
                >
                  ✕
                </ActionIcon>
              </Group>
              {node.kind === "approval" && (
                <Checkbox
                  mt="xs"
                  label="Someone other than the launcher must approve"
                  description={
                    "Whoever launched a run (for a schedule or webhook: its owner) may deny it but" +
                    " not approve it, admins included. Approvers need the workflow:approve" +
                    " permission (operators, managers, owners)."
                  }
                  {...form.getInputProps(`nodes.${i}.approver_must_differ`, { type: "checkbox" })}
                />
              )}
              {node.kind === "apply" && (
                <Text size="xs" c="dimmed" mt="xs">
                  Refused (the node fails, and its failure edges fire) when the branch, template,
                  environment, keys or launch values moved since the plan or it expired; waits for
                  the plan’s approval when its template asks for one.
                </Text>
              )}
              {launchesTemplate(node.kind) && (
                <Group gap="xs" mt="xs" wrap="nowrap" align="flex-start">
                  <Button
                    size="compact-sm"
                    variant="default"
                    disabled={!byId.has(node.template_id ?? "")}
                    onClick={() => setEditing(i)}
                    aria-label={`Launch values of ${node.key || `node ${i + 1}`}`}
                  >
                    Launch values…
                  </Button>
                  <Text size="xs" c="dimmed" mt={4} style={{ overflowWrap: "anywhere" }}>
                    {describeLaunch(launchOf(node)).join(" · ") || "the template’s"}
                  </Text>
                </Group>
              )}
              {(launchErrors.get(i) ?? []).map((e) => (
                <Text key={`${e.field}:${e.message}`} size="xs" c="red" mt={4} role="alert">
                  {e.field ? `${e.field}: ${e.message}` : e.message}
                </Text>
              ))}
            </Paper>
          ))}
          <Group gap="xs">
            <Button
              variant="light"
              onClick={() => form.insertListItem("nodes", newNode(values.nodes, "template"))}
            >
              Add template run
            </Button>
            <Button
              variant="light"
              onClick={() => form.insertListItem("nodes", newNode(values.nodes, "approval"))}
            >
              Add approval
            </Button>
            <Button
              variant="light"
              onClick={() => form.insertListItem("nodes", newNode(values.nodes, "plan"))}
            >
              Add plan
            </Button>
            <Button
              variant="light"
              disabled={planKeys.length === 0}
              onClick={() => form.insertListItem("nodes", newNode(values.nodes, "apply"))}
            >
              Add apply
            </Button>
          </Group>

          <Title order={4}>Edges</Title>
          <FormError message={typeof form.errors.edges === "string" ? form.errors.edges : null} />
          {values.edges.map((_, j) => (
            <Paper
              key={form.key(`edges.${j}`)}
              withBorder
              p="sm"
              role="group"
              aria-label={`Edge ${j + 1}`}
            >
              <Group align="flex-end" wrap="wrap" gap="sm">
                <Select
                  label="From"
                  w={160}
                  data={keys}
                  allowDeselect={false}
                  {...form.getInputProps(`edges.${j}.from`)}
                />
                <Select
                  label="To"
                  w={160}
                  data={keys}
                  allowDeselect={false}
                  {...form.getInputProps(`edges.${j}.to`)}
                />
                <Select
                  label="When"
                  w={140}
                  data={ON}
                  allowDeselect={false}
                  {...form.getInputProps(`edges.${j}.on`)}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove edge ${j + 1}`}
                  onClick={() => form.removeListItem("edges", j)}
                  mb={4}
                >
                  ✕
                </ActionIcon>
              </Group>
              <FormError message={(form.errors[`edges.${j}`] as string | undefined) ?? null} />
            </Paper>
          ))}
          <Group gap="xs">
            <Button variant="light" onClick={addEdge} disabled={keys.length < 2}>
              Add edge
            </Button>
          </Group>

          <Title order={4}>Preview</Title>
          <WorkflowGraph
            boxes={values.nodes.map((n) => ({
              key: n.key,
              label: nodeLabel({
                ...n,
                template_name: names.get(n.template_id ?? "") ?? "template?",
              }),
            }))}
            edges={values.edges}
          />

          <FormError message={server.message} />
          <Group justify="flex-end">
            {onCancel && (
              <Button variant="default" onClick={onCancel}>
                Cancel
              </Button>
            )}
            <Button type="submit" loading={save.isPending}>
              {workflow ? "Save workflow" : "Create workflow"}
            </Button>
          </Group>
        </Stack>
      </form>
      {/* outside the form: a submit in the dialog must not bubble to the workflow's */}
      {editing !== null && editedNode && editedTemplate && (
        <NodeLaunchModal
          projectId={projectId}
          nodeKey={editedNode.key}
          template={editedTemplate}
          launch={launchOf(editedNode)}
          errors={launchErrors.get(editing) ?? []}
          onClose={() => setEditing(null)}
          onApply={(launch) => {
            form.setFieldValue(`nodes.${editing}.launch`, launch);
            forget(editing);
            setEditing(null);
          }}
        />
      )}
    </>
  );
}
