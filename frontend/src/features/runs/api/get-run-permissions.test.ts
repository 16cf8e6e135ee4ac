import { describe, expect, it } from "vitest";
import { runPermissions } from "@/features/runs/api/get-run-permissions";

// what the API sends: ProjectRead.permissions holds policy actions, TemplateRead.permissions
// the words view/run/write (src/steward/access/policy.py, TEMPLATE_PERMISSIONS)
const GRANTEE_PROJECT = ["project:view"];
const VIEWER_PROJECT = [
  "project:members:view",
  "project:view",
  "resource:view",
  "run:view",
  "template:view",
];

describe("runPermissions", () => {
  it("lets a holder of a run grant cancel and relaunch the template's runs", () => {
    expect(runPermissions(GRANTEE_PROJECT, ["view", "run"])).toEqual({
      cancel: true,
      relaunch: true,
    });
  });

  it("lets an operator cancel and relaunch through the project role", () => {
    const operator = [...VIEWER_PROJECT, "run:cancel", "run:launch"];
    expect(runPermissions(operator, ["view", "run"])).toEqual({ cancel: true, relaunch: true });
  });

  it("gives a viewer or a view grant neither", () => {
    expect(runPermissions(VIEWER_PROJECT, ["view"])).toEqual({ cancel: false, relaunch: false });
    expect(runPermissions(GRANTEE_PROJECT, ["view"])).toEqual({ cancel: false, relaunch: false });
  });

  it("says nothing while neither list is known", () => {
    expect(runPermissions(undefined, undefined)).toEqual({ cancel: null, relaunch: null });
  });
});
