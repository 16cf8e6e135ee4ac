import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The project's keys for the key picker (the first 500: a project has a few dozen). */
export function useKeyOptions(projectId: number) {
  return useQuery({
    queryKey: ["projects", projectId, "keys", "options"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/keys", {
          params: { path: { project_id: projectId }, query: { limit: 500 } },
          signal,
        }),
      ),
    select: (page) => page.items,
  });
}
