import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** Users whose name contains `q` (admins and project owners may list them). */
export function useUserSearch(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ["users", "search", q],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/users", {
          params: { query: { q: q || undefined, limit: 20 } },
          signal,
        }),
      ),
    select: (page) => page.items.filter((user) => user.is_active),
    placeholderData: keepPreviousData,
    enabled,
    retry: false,
  });
}

export function useTeams(enabled: boolean) {
  return useQuery({
    queryKey: ["teams", "all"],
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/v1/teams", { params: { query: { limit: 500 } }, signal })),
    select: (page) => page.items,
    enabled,
    retry: false,
  });
}
