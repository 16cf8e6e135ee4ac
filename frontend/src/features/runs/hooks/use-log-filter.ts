import { useInfiniteQuery } from "@tanstack/react-query";
import { fetchEvents, fetchLines } from "@/features/runs/api/get-run-output";
import { runKeys } from "@/features/runs/api/query-keys";
import type { Match } from "@/features/runs/components/log-matches";

export type LineStatusFilter = "" | "failed" | "changed" | "unreachable";

export interface LogFilter {
  q: string;
  host: string;
  status: LineStatusFilter;
}

export const NO_FILTER: LogFilter = { q: "", host: "", status: "" };

export function isFiltered(filter: LogFilter): boolean {
  return filter.q !== "" || filter.host !== "" || filter.status !== "";
}

interface MatchPage {
  items: Match[];
  next: number | null;
}

const PAGE = 1000;

async function fetchMatches(
  projectId: number,
  runId: number,
  filter: LogFilter,
  after: number,
): Promise<MatchPage> {
  const q = filter.q || undefined;
  const host = filter.host || undefined;
  if (filter.status === "changed" || filter.status === "unreachable") {
    // lines carry no "changed" flag: list the task results, each at the line its output starts
    const page = await fetchEvents(projectId, runId, {
      after: Math.max(0, after),
      limit: 500,
      host,
      q,
      ...(filter.status === "changed" ? { changed: true } : { event: "runner_on_unreachable" }),
    });
    return {
      items: page.items.map((event) => ({
        n: event.start_line,
        text: `${filter.status}: [${event.host}] ${event.task}`,
      })),
      next: page.next_after,
    };
  }
  const page = await fetchLines(projectId, runId, {
    after,
    limit: PAGE,
    q,
    host,
    failed: filter.status === "failed" || undefined,
  });
  return {
    items: page.items.map((line) => ({ n: line.line_no, text: line.text })),
    next: page.next_after,
  };
}

/** Lines matching a filter, searched by the server, a page at a time. */
export function useLogFilter(projectId: number, runId: number, filter: LogFilter, version: string) {
  return useInfiniteQuery({
    queryKey: runKeys.part(projectId, runId, "matches", filter, version),
    queryFn: ({ pageParam }) => fetchMatches(projectId, runId, filter, pageParam),
    initialPageParam: -1,
    getNextPageParam: (last: MatchPage) => last.next ?? undefined,
    enabled: isFiltered(filter),
    placeholderData: (previous) => previous,
    staleTime: Infinity,
  });
}
