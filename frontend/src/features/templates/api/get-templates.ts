import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { templateKeys } from "@/features/templates/api/query-keys";

/** A page of the project's templates; with `label`, only those carrying it. */
export function useTemplates(projectId: number, limit: number, offset: number, label?: string) {
  return useQuery({
    queryKey: templateKeys.list(projectId, limit, offset, label),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/templates", {
          params: { path: { project_id: projectId }, query: { limit, offset, label } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}
