import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import {
  bodyOf,
  checkDraft,
  draftOf,
  freeKey,
  launchOf,
  newNode,
  withoutNode,
} from "./workflow-form";

const saved: Schemas["WorkflowRead"] = {
  id: 1,
  project_id: 2,
  name: "release",
  description: "",
  nodes: [
    {
      key: "deploy",
      kind: "template",
      template_id: 5,
      template_name: "deploy",
      name: "",
      launch: { survey: { password: "********" } },
      timeout_seconds: null,
    },
    {
      key: "gate",
      kind: "approval",
      template_id: null,
      template_name: "",
      name: "ok?",
      timeout_seconds: 60,
    },
  ],
  edges: [{ from: "gate", to: "deploy", on: "success" }],
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
};

describe("workflow form", () => {
  it("sends back what it read, the saved launch values included", () => {
    expect(bodyOf(draftOf(saved))).toEqual({
      name: "release",
      description: "",
      nodes: [
        {
          key: "deploy",
          kind: "template",
          name: "",
          template_id: 5,
          launch: { survey: { password: "********" } },
        },
        // saved before the option existed (none read): sent as on, as the server reads it
        {
          key: "gate",
          kind: "approval",
          name: "ok?",
          timeout_seconds: 60,
          approver_must_differ: true,
        },
      ],
      edges: [{ from: "gate", to: "deploy", on: "success" }],
    });
  });

  it("leaves out the kept secret answers of a node whose key changed", () => {
    const draft = draftOf(saved);
    const deploy = draft.nodes[0];
    if (!deploy) throw new Error("the saved workflow has two nodes");
    deploy.launch = { limit: "web", survey: { password: "********", release: "v1" } };
    expect(launchOf(deploy)).toEqual(deploy.launch);
    deploy.key = "deploy-2";
    expect(launchOf(deploy)).toEqual({ limit: "web", survey: { release: "v1" } });
    expect(bodyOf(draft).nodes?.[0]).toMatchObject({ launch: { survey: { release: "v1" } } });
    const added = newNode(draft.nodes, "template");
    expect(launchOf(added)).toBeNull();
  });

  it("names what the server would refuse", () => {
    const draft = draftOf(saved);
    const added = newNode(draft.nodes, "template");
    draft.nodes.push(added);
    const gate = draft.nodes[1];
    if (!gate) throw new Error("the saved workflow has two nodes");
    gate.name = " ";
    draft.edges.push({ from: "deploy", to: "gate", on: "always" });
    const cycle = { "edges.0": "makes a cycle: deploy → gate → deploy" };
    expect(checkDraft(draft)).toEqual({
      "nodes.1.name": "say what is asked",
      "nodes.2.template_id": "pick a template",
      ...cycle,
    });
    gate.name = "ok?";
    added.template_id = "5";
    expect(checkDraft(draft)).toEqual(cycle);
    draft.edges.pop();
    expect(checkDraft(draft)).toEqual({});
  });

  it("finds free keys and drops the edges of a removed node", () => {
    expect(freeKey([{ key: "step-1" }, { key: "step-3" }], "step")).toBe("step-2");
    const draft = withoutNode(draftOf(saved), 1);
    expect(draft.nodes.map((n) => n.key)).toEqual(["deploy"]);
    expect(draft.edges).toEqual([]);
  });

  it("sends an empty timeout as none", () => {
    const draft = draftOf(null);
    draft.name = "x";
    draft.nodes.push(newNode([], "approval"));
    expect(bodyOf(draft).nodes).toContainEqual({
      key: "approval-1",
      kind: "approval",
      name: "Go ahead?",
      timeout_seconds: null,
      approver_must_differ: true,
    });
  });

  it("keeps an approval's separation of duties as read, on for a new one", () => {
    const off = {
      ...saved,
      nodes: saved.nodes.map((n) =>
        n.kind === "approval" ? { ...n, approver_must_differ: false } : n,
      ),
    };
    const draft = draftOf(off);
    expect(draft.nodes[1]?.approver_must_differ).toBe(false);
    expect(bodyOf(draft).nodes?.[1]).toMatchObject({ approver_must_differ: false });
    expect(bodyOf(draft).nodes?.[0]).not.toHaveProperty("approver_must_differ");
    expect(newNode([], "approval").approver_must_differ).toBe(true);
  });

  it("adds an apply node naming the last plan node and sends only its plan node", () => {
    const draft = draftOf(null);
    draft.name = "x";
    draft.nodes.push(newNode(draft.nodes, "plan"));
    const plan = draft.nodes[0];
    if (plan) plan.template_id = "4";
    draft.nodes.push(newNode(draft.nodes, "apply"));
    draft.edges.push({ from: "plan-1", to: "apply-1", on: "success" });
    expect(bodyOf(draft).nodes).toEqual([
      { key: "plan-1", kind: "plan", name: "", template_id: 4 },
      { key: "apply-1", kind: "apply", name: "", plan_node: "plan-1" },
    ]);
    expect(checkDraft(draft)).toEqual({});
    // applied already: a second apply node names none, and must pick one
    draft.nodes.push(newNode(draft.nodes, "apply"));
    expect(draft.nodes[2]?.plan_node).toBeNull();
    expect(checkDraft(draft)["nodes.2.plan_node"]).toBe("pick the plan node it applies");
    const unplanned = { ...draft, nodes: draft.nodes.map((n) => ({ ...n, template_id: null })) };
    expect(checkDraft(unplanned)["nodes.0.template_id"]).toBe("pick a template");
  });
});
