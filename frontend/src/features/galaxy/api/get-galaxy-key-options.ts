import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { galaxyKeyOptions } from "@/features/galaxy/lib/galaxy-server-form";

export function useGalaxyKeyOptions(projectId: number, enabled = true) {
  return useQuery({
    queryKey: ["projects", projectId, "keys", "options"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/keys", {
          params: { path: { project_id: projectId }, query: { limit: 500 } },
          signal,
        }),
      ),
    select: (page) => galaxyKeyOptions(page.items),
    enabled,
  });
}
