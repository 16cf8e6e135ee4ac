import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The project's repositories for the picker of file and plugin inventories. */
export function useRepositoryOptions(projectId: number, enabled: boolean) {
  return useQuery({
    queryKey: ["projects", projectId, "repositories", "options"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/repositories", {
          params: { path: { project_id: projectId }, query: { limit: 500 } },
          signal,
        }),
      ),
    select: (page) => page.items.map((r) => ({ value: String(r.id), label: r.name })),
    enabled,
  });
}
