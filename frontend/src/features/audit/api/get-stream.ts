import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { components } from "@/api/schema";

export type StreamSink = components["schemas"]["StreamSinkRead"];

/** The audit stream's sinks (admins): backlog, last success, last error; read again every 10 s. */
export function useAuditStream() {
  return useQuery({
    queryKey: ["audit", "stream"],
    queryFn: ({ signal }) => unwrap(api.GET("/api/v1/audit/stream", { signal })),
    refetchInterval: 10_000,
  });
}
