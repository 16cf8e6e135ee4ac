import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { projectKeys } from "@/features/projects/api/query-keys";

export function useProject(projectId: number) {
  return useQuery({
    queryKey: projectKeys.detail(projectId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}", {
          params: { path: { project_id: projectId } },
          signal,
        }),
      ),
  });
}
