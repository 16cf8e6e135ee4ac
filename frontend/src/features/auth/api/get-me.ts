import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const meQuery = queryOptions({
  queryKey: ["auth", "me"],
  queryFn: ({ signal }) => unwrap(api.GET("/api/v1/auth/me", { signal })),
  staleTime: 5 * 60_000,
});

export function useMe() {
  return useQuery(meQuery);
}
