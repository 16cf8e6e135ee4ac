import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { venvChoices } from "@/features/templates/lib/template-form";

/** The Ansible installations a template may run with: the server's own ("") first. */
export function useAnsibleVenvChoices(enabled = true) {
  return useQuery({
    queryKey: ["ansible-venvs"],
    queryFn: ({ signal }) => unwrap(api.GET("/api/v1/ansible-venvs", { signal })),
    select: venvChoices,
    enabled,
    staleTime: 60_000,
  });
}
