import { describe, expect, it } from "vitest";
import {
  attachmentName,
  describeCreated,
  EXPORT_MAX_BYTES,
  readExport,
} from "@/features/projects/lib/export-file";

describe("attachmentName", () => {
  it("takes the file name of the header", () => {
    expect(attachmentName('attachment; filename="steward-web.json"', "x.json")).toBe(
      "steward-web.json",
    );
  });
  it("falls back without a header or with a path in the name", () => {
    expect(attachmentName(null, "x.json")).toBe("x.json");
    expect(attachmentName('attachment; filename="../etc/passwd"', "x.json")).toBe("x.json");
  });
});

describe("readExport", () => {
  it("reads a document and its project's name", () => {
    const text = JSON.stringify({ steward_export: 1, project: { name: "web" } });
    expect(readExport(text)).toEqual({
      ok: true,
      document: { steward_export: 1, project: { name: "web" } },
      name: "web",
    });
  });
  it("refuses what is not a document", () => {
    expect(readExport("{nope")).toMatchObject({
      ok: false,
      error: expect.stringContaining("JSON"),
    });
    expect(readExport("[1]")).toMatchObject({ ok: false });
    expect(readExport('{"project": {}}')).toMatchObject({
      ok: false,
      error: expect.stringContaining("steward_export"),
    });
    expect(readExport("{}", EXPORT_MAX_BYTES + 1)).toMatchObject({
      ok: false,
      error: expect.stringContaining("5 MiB"),
    });
  });
});

describe("describeCreated", () => {
  it("lists the kinds made, without the empty ones", () => {
    expect(describeCreated({ keys: 2, templates: 1, webhooks: 0 })).toBe("2 keys, 1 template");
    expect(describeCreated({ notification_destinations: 2 })).toBe("2 notification destinations");
    expect(describeCreated({ inventories: 1 })).toBe("1 inventory");
    expect(describeCreated({ keys: 0 })).toBe("nothing");
  });
});
