import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { projectKeys } from "@/features/projects/api/query-keys";

export function useMembers(projectId: number) {
  return useQuery({
    queryKey: projectKeys.members(projectId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/members", {
          params: { path: { project_id: projectId } },
          signal,
        }),
      ),
  });
}
