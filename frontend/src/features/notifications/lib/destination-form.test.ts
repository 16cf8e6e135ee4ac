import { useForm } from "@mantine/form";
import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import { ApiError } from "@/api/errors";
import {
  type DestinationFormValues,
  destinationTarget,
  toDestinationCreate,
  toDestinationUpdate,
  toDestinationValues,
} from "@/features/notifications/lib/destination-form";
import {
  toSubscriptionCreate,
  toSubscriptionUpdate,
  toSubscriptionValues,
} from "@/features/notifications/lib/events";
import { applyServerErrors } from "@/lib/form-errors";

const email: Schemas["DestinationRead"] = {
  id: 2,
  project_id: 1,
  name: "dba-mail",
  description: "",
  kind: "email",
  config: {
    host: "smtp.example.com",
    port: 465,
    security: "tls",
    username: "",
    from_address: "steward@example.com",
    to: ["dba@example.com", "oncall@example.com"],
    verify_tls: true,
  },
  secret_key_id: 5,
  secret_key_name: "smtp",
  enabled: true,
  created_at: "",
  updated_at: "",
};

describe("destination form", () => {
  it("sends only the fields of the chosen kind", () => {
    const values = toDestinationValues(null);
    values.name = "hook";
    values.kind = "webhook";
    values.secret_key_id = "8";
    values.config.url = " https://hooks.example.com/x ";
    values.config.host = "left over from email";
    values.config.headers = [
      { id: "a", name: "X-Team", value: "dba" },
      { id: "b", name: " ", value: "" },
    ];
    expect(toDestinationCreate(values)).toEqual({
      kind: "webhook",
      name: "hook",
      description: "",
      enabled: true,
      config: { url: "https://hooks.example.com/x", headers: { "X-Team": "dba" } },
      secret_key_id: 8,
    });
    expect(toDestinationCreate({ ...values, kind: "slack" })).toEqual({
      kind: "slack",
      name: "hook",
      description: "",
      enabled: true,
      secret_key_id: 8,
    });
  });

  it("edits an email destination as stored; no key removes its password", () => {
    const values = toDestinationValues(email);
    expect(values.config.to).toEqual(["dba@example.com", "oncall@example.com"]);
    expect(toDestinationUpdate(values)).toEqual({
      name: "dba-mail",
      description: "",
      enabled: true,
      config: email.config,
      secret_key_id: 5,
    });
    expect(toDestinationUpdate({ ...values, secret_key_id: "" }).secret_key_id).toBeNull();
    expect(destinationTarget(email)).toBe(
      "dba@example.com, oncall@example.com via smtp.example.com",
    );
  });

  it("shows a create's errors, tagged with the kind by the server, on the config fields", () => {
    const form = renderHook(() =>
      useForm<DestinationFormValues>({ initialValues: toDestinationValues(null) }),
    ).result;
    const error = new ApiError(422, "Invalid input", "", [
      { field: "email.config.host", message: "'169.254.169.254' is in a blocked network" },
      { field: "email.config.to.0", message: "not an email address" },
    ]);
    act(() => void applyServerErrors(form.current, error, { unionTag: "email" }));
    expect(form.current.errors).toEqual({
      "config.host": "'169.254.169.254' is in a blocked network",
      "config.to": "0: not an email address",
    });
  });
});

describe("subscription form", () => {
  it("scopes a new subscription and sends minutes only with the long-running event", () => {
    const values = toSubscriptionValues(null, "schedule", 3, 9);
    expect(values.events).toEqual(["failed", "error", "timed_out", "fixed"]);
    values.destination_id = "2";
    values.long_running_minutes = 30;
    expect(toSubscriptionCreate(values)).toEqual({
      destination_id: 2,
      events: ["failed", "error", "timed_out", "fixed"],
      schedule_id: 9,
      long_running_minutes: null,
      host_quiet_minutes: null,
    });
    values.events = ["long_running"];
    values.scope = "template";
    expect(toSubscriptionCreate(values)).toEqual({
      destination_id: 2,
      events: ["long_running"],
      template_id: 3,
      long_running_minutes: 30,
      host_quiet_minutes: null,
    });
    expect(toSubscriptionUpdate({ ...values, scope: "project" })).toEqual({
      destination_id: 2,
      events: ["long_running"],
      long_running_minutes: 30,
      host_quiet_minutes: null,
    });
  });

  it("sends the quiet threshold only with the host-quiet event, none for the instance's", () => {
    const values = toSubscriptionValues(null, "project", null, null);
    values.destination_id = "2";
    values.host_quiet_minutes = 10;
    expect(toSubscriptionCreate(values).host_quiet_minutes).toBeNull();
    values.events = ["host_quiet", "failed"];
    expect(toSubscriptionCreate(values)).toEqual({
      destination_id: 2,
      events: ["host_quiet", "failed"],
      long_running_minutes: null,
      host_quiet_minutes: 10,
    });
    values.host_quiet_minutes = "";
    expect(toSubscriptionUpdate(values).host_quiet_minutes).toBeNull();
  });
});
