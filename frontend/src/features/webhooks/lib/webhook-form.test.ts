import { useForm } from "@mantine/form";
import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import { ApiError } from "@/api/errors";
import {
  type WebhookFormValues,
  parseScalar,
  scalarText,
  toMatcher,
  toNewWebhookBody,
  toWebhookBody,
  toWebhookValues,
} from "@/features/webhooks/lib/webhook-form";
import { applyServerErrors } from "@/lib/form-errors";

const webhook: Schemas["WebhookRead"] = {
  id: 4,
  project_id: 1,
  target_kind: "template",
  template_id: 3,
  template_name: "deploy",
  workflow_id: null,
  workflow_name: "",
  name: "on-push",
  description: "",
  url: "http://127.0.0.1/api/v1/hooks/abc",
  auth: "github",
  signature_header: "X-Hub-Signature-256",
  delivery_header: "X-Github-Delivery",
  secret_key_id: 7,
  enabled: true,
  disabled_reason: "",
  matchers: [
    { source: "header", path: "X-GitHub-Event", op: "equals", value: "push" },
    { source: "body", path: "ref", op: "one_of", value: ["refs/heads/main", "refs/heads/prod"] },
    { source: "body", path: "forced", op: "equals", value: false },
    { source: "body", path: "build", op: "equals", value: "42" },
    { source: "body", path: "head_commit", op: "exists", value: null },
  ],
  extractors: { commit_message: "head_commit.message" },
  ref_from: "after",
  rate_limit_per_minute: 10,
  owner_id: 1,
  owner: "admin",
  created_at: "",
  updated_at: "",
};

describe("matcher values", () => {
  it("reads JSON literals as values and anything else as text", () => {
    expect(parseScalar("true")).toBe(true);
    expect(parseScalar("42")).toBe(42);
    expect(parseScalar("-1.5e3")).toBe(-1500);
    expect(parseScalar("null")).toBeNull();
    expect(parseScalar('"42"')).toBe("42");
    expect(parseScalar("refs/heads/main")).toBe("refs/heads/main");
    expect(parseScalar("42 apples")).toBe("42 apples");
  });

  it("writes a value back as text that reads the same", () => {
    for (const value of [true, 42, null, "42", "true", "refs/heads/main", 'say "hi"']) {
      expect(parseScalar(scalarText(value))).toEqual(value);
    }
    expect(scalarText("42")).toBe('"42"');
    expect(scalarText("main")).toBe("main");
  });

  it("keeps header values as text", () => {
    expect(
      toMatcher({
        id: "x",
        source: "header",
        path: "X-Count",
        op: "equals",
        value: "42",
        values: [],
      }),
    ).toEqual({ source: "header", path: "X-Count", op: "equals", value: "42" });
  });
});

describe("webhook form", () => {
  it("saves a stored webhook back unchanged", () => {
    const values = toWebhookValues(webhook, null);
    expect(values.matchers.map((m) => [m.value, m.values])).toEqual([
      ["push", []],
      ["", ["refs/heads/main", "refs/heads/prod"]],
      ["false", []],
      ['"42"', []],
      ["", []],
    ]);
    const { matchers, extractors, ref_from, rate_limit_per_minute, secret_key_id } =
      toWebhookBody(values);
    expect(matchers).toEqual(webhook.matchers);
    expect({ extractors, ref_from, rate_limit_per_minute, secret_key_id }).toEqual({
      extractors: { commit_message: "head_commit.message" },
      ref_from: "after",
      rate_limit_per_minute: 10,
      secret_key_id: 7,
    });
  });

  it("drops blank extractor rows and sends 0 for a missing key, for the server to name", () => {
    const values = toWebhookValues(null, 3);
    values.extractors.push({ id: "a", variable: "", path: "" });
    const body = toWebhookBody(values);
    expect(body.extractors).toEqual({});
    expect(body.secret_key_id).toBe(0);
    expect(body.auth).toBe("github");
  });

  it("puts a matcher's error under its row and an extractor's under the editor", () => {
    const form = renderHook(() =>
      useForm<WebhookFormValues>({ initialValues: toWebhookValues(webhook, null) }),
    ).result;
    const error = new ApiError(422, "Invalid input", "", [
      { field: "matchers[1]", message: "value: 'one_of' takes a list of 1 to 100 values" },
      { field: "extractors.commit_message", message: "not a body path" },
      { field: "secret_key_id", message: "key 9 is not a secret key" },
    ]);
    act(() => void applyServerErrors(form.current, error));
    expect(form.current.errors).toEqual({
      "matchers.1": "value: 'one_of' takes a list of 1 to 100 values",
      extractors: "commit_message: not a body path",
      secret_key_id: "key 9 is not a secret key",
    });
  });

  it("names one target for a new webhook: the template, or the workflow picked", () => {
    const values = { ...toWebhookValues(null, null), name: "on-push", secret_key_id: "7" };
    expect(toNewWebhookBody(values)).toEqual({
      errors: { template_id: "Pick the template to launch" },
    });
    const ofTemplate = toNewWebhookBody({ ...values, template_id: "3", ref_from: "after" });
    expect("body" in ofTemplate && ofTemplate.body).toMatchObject({
      template_id: 3,
      ref_from: "after",
    });
    expect("body" in ofTemplate && "workflow_id" in ofTemplate.body).toBe(false);

    const workflow = { ...values, target_kind: "workflow" as const, template_id: "3" };
    expect(toNewWebhookBody(workflow)).toEqual({
      errors: { workflow_id: "Pick the workflow to launch" },
    });
    const ofWorkflow = toNewWebhookBody({ ...workflow, workflow_id: "12" });
    if (!("body" in ofWorkflow)) throw new Error(JSON.stringify(ofWorkflow));
    expect(ofWorkflow.body.workflow_id).toBe(12);
    expect("template_id" in ofWorkflow.body).toBe(false);
  });

  it("sends no launch values from the body for a workflow, whatever the rows hold", () => {
    const values = toWebhookValues(
      { ...webhook, target_kind: "workflow", template_id: null, workflow_id: 12 },
      null,
    );
    expect(values.target_kind).toBe("workflow");
    expect(values.workflow_id).toBe("12");
    const body = toWebhookBody({ ...values, ref_from: "after" });
    expect(body.extractors).toEqual({});
    expect(body.ref_from).toBe("");
    expect(body.matchers).toEqual(webhook.matchers);
  });
});
