import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export interface Option {
  value: string;
  label: string;
}

/** Templates and members of a project, for the runs list's filters. */
export function useRunFilterOptions(projectId: number) {
  const templates = useQuery({
    queryKey: ["projects", projectId, "templates", "options"],
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/templates", {
          params: { path: { project_id: projectId }, query: { limit: 200 } },
        }),
      ),
    staleTime: 60_000,
  });
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
  const templateOptions: Option[] = (templates.data?.items ?? []).map((t) => ({
    value: String(t.id),
    label: t.name,
  }));
  const launcherOptions: Option[] = (members.data ?? []).flatMap((member) =>
    member.user_id === null
      ? []
      : [{ value: String(member.user_id), label: member.username ?? `user ${member.user_id}` }],
  );
  return { templateOptions, launcherOptions };
}
