import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The playbooks found in a repository (at its ref), for the template form's picker; a
 * repository that cannot be read now answers an error the form shows. */
export function usePlaybooks(projectId: number, repositoryId: string) {
  return useQuery({
    queryKey: ["projects", projectId, "repositories", repositoryId, "playbooks"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/repositories/{repository_id}/playbooks", {
          params: { path: { project_id: projectId, repository_id: Number(repositoryId) } },
          signal,
        }),
      ),
    enabled: repositoryId !== "",
    staleTime: 60_000,
    retry: false,
  });
}
