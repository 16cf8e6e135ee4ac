import type { Schemas } from "@/api/client";
import { checkGraph, type GraphEdge, type GraphErrors } from "@/features/workflows/lib/graph";

type Workflow = Schemas["WorkflowRead"];

/** A node as the editor holds it: the request's fields, with the pickers' string values. */
export interface NodeDraft {
  key: string;
  kind: Schemas["NodeKind"];
  /** the template picker's value (a template id as text) */
  template_id: string | null;
  name: string;
  /** approvals: seconds until denied; "" or 0 waits forever */
  timeout_seconds: number | "";
  /** approvals: the launcher of a run may not approve it (on unless the node says false) */
  approver_must_differ: boolean;
  /** apply nodes: the key of the plan node whose plan it applies */
  plan_node: string | null;
  /** template and plan nodes: as saved, or as its launch values dialog set them (a secret answer as
   * ********: the server keeps it); null leaves every value to the template */
  launch: Schemas["LaunchOverrides"] | null;
  /** the key its secret answers are saved under (null: a new node); see `launchOf` */
  saved_key: string | null;
}

/** The editor's values are the request body's shape, so a 422's field path lands on its input. */
export interface WorkflowDraft {
  name: string;
  description: string;
  nodes: NodeDraft[];
  edges: GraphEdge[];
}

export function draftOf(workflow: Workflow | null): WorkflowDraft {
  if (!workflow) return { name: "", description: "", nodes: [], edges: [] };
  return {
    name: workflow.name,
    description: workflow.description,
    nodes: workflow.nodes.map((n) => ({
      key: n.key,
      kind: n.kind,
      template_id: n.template_id ? String(n.template_id) : null,
      name: n.name,
      timeout_seconds: n.timeout_seconds ?? "",
      // a node saved before the option has none: on, as the server reads it
      approver_must_differ: n.approver_must_differ ?? true,
      launch: n.launch ?? null,
      plan_node: n.plan_node ?? null,
      saved_key: n.key,
    })),
    edges: workflow.edges.map((e) => ({ from: e.from, to: e.to, on: e.on })),
  };
}

/** A key not used yet: `prefix-1`, `prefix-2`, … */
export function freeKey(nodes: readonly { key: string }[], prefix: string): string {
  const used = new Set(nodes.map((n) => n.key));
  for (let i = 1; ; i++) {
    if (!used.has(`${prefix}-${i}`)) return `${prefix}-${i}`;
  }
}

const PREFIX: Record<Schemas["NodeKind"], string> = {
  template: "step",
  approval: "approval",
  plan: "plan",
  apply: "apply",
};

/** Whether a node of `kind` launches a template it names (template and plan nodes). */
export function launchesTemplate(kind: Schemas["NodeKind"]): boolean {
  return kind === "template" || kind === "plan";
}

export function newNode(nodes: readonly NodeDraft[], kind: Schemas["NodeKind"]): NodeDraft {
  // an apply node applies the last plan node not applied yet, if there is one
  const applied = new Set(nodes.map((n) => n.plan_node));
  const plans = nodes.filter((n) => n.kind === "plan" && !applied.has(n.key));
  return {
    key: freeKey(nodes, PREFIX[kind]),
    kind,
    template_id: null,
    name: kind === "approval" ? "Go ahead?" : "",
    timeout_seconds: "",
    approver_must_differ: true,
    launch: null,
    plan_node: kind === "apply" ? (plans.at(-1)?.key ?? null) : null,
    saved_key: null,
  };
}

/** The keys of the plan nodes an apply node may name (the server checks that it precedes). */
export function planNodeKeys(nodes: readonly NodeDraft[]): string[] {
  return nodes.filter((n) => n.kind === "plan" && n.key).map((n) => n.key);
}

const MASK = "********";

/**
 * A node's launch values as they can be sent: the server keeps a secret answer sent as
 * ******** by node key, so a node whose key changed (or a new one) has none to keep: its
 * ******** answers are left out (to be typed again) rather than sent.
 */
export function launchOf(node: NodeDraft): Schemas["LaunchOverrides"] | null {
  const launch = node.launch;
  if (!launch?.survey || node.key === node.saved_key) return launch;
  const survey = Object.fromEntries(
    Object.entries(launch.survey).filter(([, answer]) => answer !== MASK),
  );
  return { ...launch, survey };
}

export function bodyOf(draft: WorkflowDraft): Schemas["WorkflowCreate"] {
  return {
    name: draft.name.trim(),
    description: draft.description,
    nodes: draft.nodes.map((n) => {
      if (launchesTemplate(n.kind))
        return {
          key: n.key,
          kind: n.kind,
          name: "",
          template_id: n.template_id ? Number(n.template_id) : null,
          ...(n.launch ? { launch: launchOf(n) } : {}),
        };
      if (n.kind === "apply") return { key: n.key, kind: n.kind, name: "", plan_node: n.plan_node };
      return {
        key: n.key,
        kind: n.kind,
        name: n.name.trim(),
        timeout_seconds: n.timeout_seconds === "" ? null : n.timeout_seconds,
        approver_must_differ: n.approver_must_differ,
      };
    }),
    edges: draft.edges.map((e) => ({ from: e.from, to: e.to, on: e.on })),
  };
}

/** What the server would refuse, by field path, before sending: the graph and each node. */
export function checkDraft(draft: WorkflowDraft): GraphErrors {
  const errors: GraphErrors = {};
  if (!draft.name.trim()) errors.name = "a name is required";
  draft.nodes.forEach((n, i) => {
    if (launchesTemplate(n.kind) && !n.template_id)
      errors[`nodes.${i}.template_id`] = "pick a template";
    if (n.kind === "apply" && !planNodeKeys(draft.nodes).includes(n.plan_node ?? ""))
      errors[`nodes.${i}.plan_node`] = "pick the plan node it applies";
    if (n.kind === "approval" && !n.name.trim()) errors[`nodes.${i}.name`] = "say what is asked";
  });
  return { ...errors, ...checkGraph(draft.nodes, draft.edges) };
}

/** Edges that still lead between existing nodes once the node `key` is removed. */
export function withoutNode(draft: WorkflowDraft, index: number): WorkflowDraft {
  const key = draft.nodes[index]?.key;
  return {
    ...draft,
    nodes: draft.nodes.filter((_, i) => i !== index),
    edges: draft.edges.filter((e) => e.from !== key && e.to !== key),
  };
}
