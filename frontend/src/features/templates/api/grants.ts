import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { templateKeys } from "@/features/templates/api/query-keys";

export type GrantCreate = Schemas["GrantCreate"];
export type GrantPermission = Schemas["GrantPermission"];
export type GrantUpdate = Schemas["GrantUpdate"];

export function useGrants(projectId: number, templateId: number) {
  return useQuery({
    queryKey: templateKeys.grants(projectId, templateId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/templates/{template_id}/grants", {
          params: { path: { project_id: projectId, template_id: templateId } },
          signal,
        }),
      ),
  });
}

export function useGrantMutations(projectId: number, templateId: number) {
  const queryClient = useQueryClient();
  const path = { project_id: projectId, template_id: templateId };
  const onSuccess = () =>
    queryClient.invalidateQueries({ queryKey: templateKeys.grants(projectId, templateId) });
  const create = useMutation({
    mutationFn: (body: GrantCreate) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/templates/{template_id}/grants", {
          params: { path },
          body,
        }),
      ),
    onSuccess,
  });
  const update = useMutation({
    mutationFn: ({ grantId, ...body }: { grantId: number } & GrantUpdate) =>
      unwrap(
        api.PATCH("/api/v1/projects/{project_id}/templates/{template_id}/grants/{grant_id}", {
          params: { path: { ...path, grant_id: grantId } },
          body,
        }),
      ),
    onSuccess,
  });
  const remove = useMutation({
    mutationFn: (grantId: number) =>
      unwrap(
        api.DELETE("/api/v1/projects/{project_id}/templates/{template_id}/grants/{grant_id}", {
          params: { path: { ...path, grant_id: grantId } },
        }),
      ),
    onSuccess,
  });
  return { create, update, remove };
}
