/** The export document as a file: its name when downloaded, and reading one picked to import. */

/** The file name of a `Content-Disposition: attachment; filename="…"` header, else `fallback`. */
export function attachmentName(disposition: string | null, fallback: string): string {
  const match = disposition?.match(/filename="([^"\\/]+)"/);
  return match?.[1] ?? fallback;
}

export type ReadExport =
  { ok: true; document: Record<string, unknown>; name: string } | { ok: false; error: string };

/** The largest document the server reads (the import answers 413 above it). */
export const EXPORT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * A picked file's text as an export document: JSON, an object, with `steward_export` and a
 * project. The server checks the rest (and names the place of any mistake).
 */
export function readExport(text: string, size: number = text.length): ReadExport {
  if (size > EXPORT_MAX_BYTES) return { ok: false, error: "The file is larger than 5 MiB." };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: "The file is not JSON: pick a file exported by Steward." };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { ok: false, error: "The file is not a Steward export (not a JSON object)." };
  }
  const document = parsed as Record<string, unknown>;
  if (!("steward_export" in document)) {
    return { ok: false, error: "The file is not a Steward export (no steward_export field)." };
  }
  const project = document.project;
  const name =
    typeof project === "object" && project !== null && "name" in project
      ? String((project as Record<string, unknown>).name)
      : "";
  return { ok: true, document, name };
}

const SINGULAR: Readonly<Record<string, string>> = {
  keys: "key",
  repositories: "repository",
  inventories: "inventory",
  environments: "environment",
  templates: "template",
  schedules: "schedule",
  webhooks: "webhook",
  notification_destinations: "notification destination",
  notification_subscriptions: "notification subscription",
};

/** "3 keys, 1 template": what an import made (or would make), the kinds with none left out. */
export function describeCreated(created: Readonly<Record<string, number>>): string {
  const parts = Object.entries(created)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => {
      const noun = count === 1 ? (SINGULAR[kind] ?? kind) : kind.replaceAll("_", " ");
      return `${count} ${noun}`;
    });
  return parts.length > 0 ? parts.join(", ") : "nothing";
}
