import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { projectKeys } from "@/features/projects/api/query-keys";

export function useProjects(limit: number, offset: number) {
  return useQuery({
    queryKey: projectKeys.list(limit, offset),
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/v1/projects", { params: { query: { limit, offset } }, signal })),
    placeholderData: keepPreviousData,
  });
}
