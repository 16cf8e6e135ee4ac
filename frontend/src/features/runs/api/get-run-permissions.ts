import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export interface RunPermissions {
  /** null: the API didn't say; offer the action and show the server's answer */
  cancel: boolean | null;
  relaunch: boolean | null;
}

/**
 * What the caller may do to runs of a template: the project-wide actions, or those a grant on
 * the template gives (`permissions` on ProjectRead and TemplateRead).
 */
export function useRunPermissions(
  projectId: number,
  templateId: number | null,
  projectPermissions: readonly string[] | undefined,
): RunPermissions {
  const template = useQuery({
    // the templates feature caches the same body under this key
    queryKey: ["projects", projectId, "templates", templateId],
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/templates/{template_id}", {
          params: { path: { project_id: projectId, template_id: templateId ?? 0 } },
        }),
      ),
    enabled: templateId !== null,
    staleTime: 60_000,
  });
  const templatePermissions = template.data?.permissions;
  const allows = (action: string): boolean | null => {
    if (projectPermissions === undefined && templatePermissions === undefined) return null;
    return (
      (projectPermissions?.includes(action) ?? false) ||
      (templatePermissions?.includes(action) ?? false)
    );
  };
  return { cancel: allows("run:cancel"), relaunch: allows("run:launch") };
}
