import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { projectKeys } from "@/features/projects/api/query-keys";

export type MemberSet = Schemas["MemberSet"];
export type ProjectRole = Schemas["ProjectRole"];

/** Strongest first; the compiler checks each against the schema's enum. */
export const PROJECT_ROLES = [
  "owner",
  "manager",
  "operator",
  "viewer",
] as const satisfies readonly ProjectRole[];

export function useSetMember(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberSet) =>
      unwrap(
        api.PUT("/api/v1/projects/{project_id}/members", {
          params: { path: { project_id: projectId } },
          body,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.members(projectId) }),
  });
}
