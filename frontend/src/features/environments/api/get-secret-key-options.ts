import { useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";

// the kinds that hold one value a variable can take (the server refuses ssh keys here)
const SECRET_KINDS: readonly Schemas["KeyKind"][] = ["secret", "login_password", "vault_password"];

export function useSecretKeyOptions(projectId: number) {
  return useQuery({
    queryKey: ["projects", projectId, "keys", "options"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/keys", {
          params: { path: { project_id: projectId }, query: { limit: 500 } },
          signal,
        }),
      ),
    select: (page) =>
      page.items
        .filter((key) => SECRET_KINDS.includes(key.kind))
        .map((key) => ({ value: String(key.id), label: `${key.name} (${key.kind})` })),
  });
}
