import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { type Option, useTemplateOptions } from "@/api/queries/project-options";

/** Templates and members of a project, for the runs list's filters. */
export function useRunFilterOptions(projectId: number) {
  const templates = useTemplateOptions(projectId);
  const members = useQuery({
    queryKey: ["projects", projectId, "members", "options"],
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/members", {
          params: { path: { project_id: projectId } },
        }),
      ),
    staleTime: 60_000,
    // a viewer without members:view still filters by the rest
    retry: false,
  });
  const templateOptions = templates.data ?? [];
  const launcherOptions: Option[] = (members.data ?? []).flatMap((member) =>
    member.user_id === null
      ? []
      : [{ value: String(member.user_id), label: member.username ?? `user ${member.user_id}` }],
  );
  return { templateOptions, launcherOptions };
}
