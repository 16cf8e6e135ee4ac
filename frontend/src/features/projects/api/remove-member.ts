import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { projectKeys } from "@/features/projects/api/query-keys";
import type { Holder } from "@/lib/holders";

export function useRemoveMember(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (holder: Holder) =>
      holder.user_id !== undefined
        ? unwrap(
            api.DELETE("/api/v1/projects/{project_id}/members/{user_id}", {
              params: { path: { project_id: projectId, user_id: holder.user_id } },
            }),
          )
        : unwrap(
            api.DELETE("/api/v1/projects/{project_id}/members/teams/{team_id}", {
              params: { path: { project_id: projectId, team_id: holder.team_id } },
            }),
          ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.members(projectId) }),
  });
}
