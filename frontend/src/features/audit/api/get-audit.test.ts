import { describe, expect, it } from "vitest";
import { auditExportUrl } from "@/features/audit/api/get-audit";
import { type FilterValues, toAuditFilters } from "@/features/audit/components/audit-panel";

const EMPTY: FilterValues = { actor: "", action: "", since: "", until: "", q: "", instance: false };

describe("the audit page's filters and exports", () => {
  it("keeps a project's page to its project, never to the instance's records", () => {
    const filters = toAuditFilters(3, { ...EMPTY, actor: " alice ", instance: true });
    expect(filters).toMatchObject({ project_id: 3, actor: "alice", instance: undefined });
  });

  it("lets the instance's page keep to the records of no project", () => {
    expect(toAuditFilters(undefined, { ...EMPTY, instance: true })).toMatchObject({
      project_id: undefined,
      instance: true,
    });
    expect(toAuditFilters(undefined, EMPTY).instance).toBeUndefined();
  });

  it("exports the records shown, as JSON lines or CSV", () => {
    const filters = toAuditFilters(undefined, {
      ...EMPTY,
      action: "auth",
      q: "a&b",
      instance: true,
      since: "2026-11-27T10:00",
    });
    const csv = new URL(auditExportUrl(filters, "csv"), "http://x");
    expect(csv.pathname).toBe("/api/v1/audit/export.csv");
    expect(Object.fromEntries(csv.searchParams)).toEqual({
      action: "auth",
      q: "a&b",
      instance: "true",
      since: new Date("2026-11-27T10:00").toISOString(),
    });
    expect(auditExportUrl({ project_id: 3 })).toBe("/api/v1/audit/export?project_id=3");
    expect(auditExportUrl({ instance: false })).toBe("/api/v1/audit/export");
  });
});
