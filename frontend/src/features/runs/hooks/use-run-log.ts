import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useReducer, useState } from "react";
import { type Run, isActive } from "@/features/runs/api/get-run";
import { runKeys } from "@/features/runs/api/query-keys";
import { fetchLines, streamUrl } from "@/features/runs/api/get-run-output";
import { LineStore } from "@/features/runs/lib/line-store";
import { EMPTY_PROGRESS, type ProgressEvent, applyProgress } from "@/features/runs/lib/progress";
import { RunStream } from "@/features/runs/lib/run-stream";

/** The threshold the server sends with the stream's status, until it has. */
const DEFAULT_QUIET_SECONDS = 300;

/** The store of a run's lines, its first chunk already asked for. */
export function createRunStore(projectId: number, runId: number) {
  const store = new LineStore(async (after, limit) => {
    const page = await fetchLines(projectId, runId, { after, limit });
    return {
      lines: page.items.map((line) => ({ n: line.line_no, t: line.text })),
      count: page.line_count,
    };
  });
  store.prime();
  return store;
}

/**
 * A run's output: a line store that loads what is looked at, and, while the run is going on,
 * the live stream appending to it (from the end: earlier lines load when scrolled to).
 */
export function useRunLog(run: Run, store: LineStore) {
  const { project_id: projectId, id: runId } = run;
  const queryClient = useQueryClient();
  // decided once: a stream opened for a live run stays until its `end`, so the last lines
  // aren't cut off when a poll sees the final status before the stream has sent them
  const [live] = useState(() => isActive(run.status));
  const [connected, setConnected] = useState(true);
  const [progress, addEvents] = useReducer(
    (state: typeof EMPTY_PROGRESS, events: ProgressEvent[]) => applyProgress(state, events),
    EMPTY_PROGRESS,
  );
  const [quietSeconds, setQuietSeconds] = useState(DEFAULT_QUIET_SECONDS);

  useEffect(() => store.setCount(run.line_count), [store, run.line_count]);

  useEffect(() => {
    if (!live) return;
    const refresh = () =>
      queryClient.invalidateQueries({ queryKey: runKeys.detail(projectId, runId), exact: true });
    const stream = new RunStream({
      url: streamUrl(projectId, runId),
      after: store.count - 1,
      eventsAfter: -1,
      handlers: {
        onEvents: addEvents,
        onLines: (lines) => store.add(lines),
        onGap: (from, to) => {
          void fetchLines(projectId, runId, { after: from - 1, limit: to - from + 1 }).then(
            (page) => store.add(page.items.map((l) => ({ n: l.line_no, t: l.text }))),
            // the chunk loader fetches whatever is still missing when it comes into view
            () => undefined,
          );
        },
        onStatus: (status) => {
          store.setCount(status.line_count);
          if (status.host_quiet_seconds) setQuietSeconds(status.host_quiet_seconds);
          void refresh();
        },
        onEnd: (status) => {
          store.setCount(status.line_count);
          setConnected(true);
          void queryClient.invalidateQueries({ queryKey: runKeys.project(projectId) });
          void queryClient.invalidateQueries({ queryKey: runKeys.everywhere });
        },
        onConnection: setConnected,
      },
    });
    return () => stream.close();
  }, [live, projectId, runId, store, queryClient]);

  return { live, connected, progress, quietSeconds };
}
