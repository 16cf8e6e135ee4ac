import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The server's version (`GET /health`, answered without sign-in); it changes only with a restart. */
export function useServerVersion() {
  return useQuery({
    queryKey: ["health"],
    queryFn: ({ signal }) => unwrap(api.GET("/api/v1/health", { signal })),
    select: (health) => health.version,
    staleTime: Infinity,
  });
}
