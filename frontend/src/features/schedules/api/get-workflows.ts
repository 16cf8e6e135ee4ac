import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The project's workflows, by name: what a schedule (or a webhook) may launch instead. */
export function useWorkflowOptions(projectId: number, enabled = true) {
  return useQuery({
    queryKey: ["projects", projectId, "workflows", "options"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/workflows", {
          params: { path: { project_id: projectId }, query: { limit: 500 } },
          signal,
        }),
      ),
    select: (page) => page.items.map((w) => ({ value: String(w.id), label: w.name })),
    enabled,
    retry: false,
  });
}
