import { describe, expect, it } from "vitest";
import { auditLink, describeObject } from "@/features/audit/lib/audit-link";

describe("auditLink", () => {
  it("links a run record to its run", () => {
    expect(auditLink({ object_type: "run", object_id: 42, project_id: 3 }, false)).toBe(
      "/projects/3/runs/42",
    );
  });

  it("links an object of a project to the list of its kind", () => {
    expect(auditLink({ object_type: "inventory", object_id: 5, project_id: 3 }, false)).toBe(
      "/projects/3/inventories",
    );
    expect(auditLink({ object_type: "template", object_id: 9, project_id: 3 }, false)).toBe(
      "/projects/3/templates",
    );
    expect(auditLink({ object_type: "project", object_id: 3, project_id: 3 }, false)).toBe(
      "/projects/3",
    );
  });

  it("links users and teams for admins only, and nothing else", () => {
    const user = { object_type: "user", object_id: 2, project_id: null };
    expect(auditLink(user, true)).toBe("/admin/users");
    expect(auditLink(user, false)).toBeNull();
    expect(auditLink({ object_type: "token", object_id: 1, project_id: null }, true)).toBeNull();
  });
});

describe("describeObject", () => {
  it("names a run by its number and template, anything else by its name", () => {
    expect(describeObject({ object_type: "run", object_id: 12, object_name: "patch" })).toBe(
      "run #12 patch",
    );
    expect(describeObject({ object_type: "inventory", object_id: 3, object_name: "prod" })).toBe(
      "inventory prod",
    );
    expect(describeObject({ object_type: "token", object_id: 4, object_name: "" })).toBe("token 4");
  });
});
