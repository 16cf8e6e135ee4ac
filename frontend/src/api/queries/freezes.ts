import { useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";

export type ActiveFreezes = Schemas["ActiveFreezes"];
export type FreezeStanding = Schemas["FreezeStanding"];

const FREEZES_REFRESH_MS = 60_000;

/** What a launch of the template meets now: the freeze holding, the next one coming. */
export function useTemplateFreezes(projectId: number, templateId: number) {
  return useQuery({
    queryKey: ["projects", projectId, "templates", templateId, "freezes"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/templates/{template_id}/freezes", {
          params: { path: { project_id: projectId, template_id: templateId } },
          signal,
        }),
      ),
    refetchInterval: FREEZES_REFRESH_MS,
  });
}

/** The dashboard's: windows of the instance and the caller's projects, now or within 14 days. */
export function useFreezesNow() {
  return useQuery({
    queryKey: ["freezes", "now"],
    queryFn: ({ signal }) => unwrap(api.GET("/api/v1/freezes/now", { signal })),
    refetchInterval: FREEZES_REFRESH_MS,
  });
}
