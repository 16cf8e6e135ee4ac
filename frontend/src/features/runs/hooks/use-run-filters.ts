import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import type { Schemas } from "@/api/client";
import type { RunFilters } from "@/features/runs/api/get-runs";
import { LAUNCH_FIELDS } from "@/features/runs/lib/run-facts";
import { idParam } from "@/lib/id-param";
import { RUN_STATUSES } from "@/lib/run-status";

type RunStatus = Schemas["RunStatus"];

/** What the filter form shows: the URL's query parameters, as text. */
export interface RunFilterValues {
  template: string;
  status: RunStatus[];
  launcher: string;
  host: string;
  /** datetime-local values, the reader's time zone */
  since: string;
  until: string;
  /** "name:value" each (`?value=db_name:ORCL&value=limit:db01`): launch settings by their
   * field's name, else survey answers and extra vars */
  values: string[];
}

const KEYS = ["template", "status", "launcher", "host", "since", "until"] as const;

function iso(local: string): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function toRunFilters(values: RunFilterValues): RunFilters {
  const filters: RunFilters = {};
  const template = idParam(values.template) ?? undefined;
  if (template) filters.template_id = template;
  if (values.status.length > 0) filters.status = values.status;
  const launcher = idParam(values.launcher) ?? undefined;
  if (launcher) filters.launched_by_id = launcher;
  if (values.host.trim()) filters.host = values.host.trim();
  const since = iso(values.since);
  if (since) filters.since = since;
  const until = iso(values.until);
  if (until) filters.until = until;
  const pairs = values.values.filter((v) => v.indexOf(":") > 0);
  const isLaunch = (v: string) =>
    (LAUNCH_FIELDS as readonly string[]).includes(v.slice(0, v.indexOf(":")));
  const launch = pairs.filter(isLaunch);
  const answer = pairs.filter((v) => !isLaunch(v));
  if (answer.length > 0) filters.answer = answer;
  if (launch.length > 0) filters.launch = launch;
  return filters;
}

/** The runs list's filters, kept in the URL (`?status=failed,error&host=db1`) so they can be shared. */
export function useRunFilters() {
  const [params, setParams] = useSearchParams();
  const values = useMemo<RunFilterValues>(
    () => ({
      template: params.get("template") ?? "",
      status: (params.get("status") ?? "")
        .split(",")
        .filter((s): s is RunStatus => (RUN_STATUSES as readonly string[]).includes(s)),
      launcher: params.get("launcher") ?? "",
      host: params.get("host") ?? "",
      since: params.get("since") ?? "",
      until: params.get("until") ?? "",
      values: params.getAll("value"),
    }),
    [params],
  );
  const setValues = useCallback(
    (next: Partial<RunFilterValues>) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          for (const key of KEYS) {
            if (!(key in next)) continue;
            const value = next[key];
            const text = Array.isArray(value) ? value.join(",") : (value ?? "");
            if (text) updated.set(key, text);
            else updated.delete(key);
          }
          if (next.values) {
            updated.delete("value");
            for (const value of new Set(next.values)) updated.append("value", value);
          }
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  const filters = useMemo(() => toRunFilters(values), [values]);
  const active = Object.keys(filters).length > 0;
  return { values, setValues, filters, active };
}
