import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export interface RunPermissions {
  /** null: the API didn't say; offer the action and show the server's answer */
  cancel: boolean | null;
  relaunch: boolean | null;
}

/**
 * What the caller may do to runs of a template, from both lists of permissions. The project's
 * are policy actions (`run:cancel`); the template's are words (view/run/write), where "run"
 * stands for launching and cancelling, as a `run` grant allows both.
 */
export function runPermissions(
  projectPermissions: readonly string[] | undefined,
  templatePermissions: readonly string[] | undefined,
): RunPermissions {
  const allows = (action: string): boolean | null => {
    if (projectPermissions === undefined && templatePermissions === undefined) return null;
    return (
      (projectPermissions?.includes(action) ?? false) ||
      (templatePermissions?.includes("run") ?? false)
    );
  };
  return { cancel: allows("run:cancel"), relaunch: allows("run:launch") };
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
  return runPermissions(projectPermissions, template.data?.permissions);
}
