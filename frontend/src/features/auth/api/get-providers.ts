import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "@/api/client";

export type AuthProviders = Schemas["AuthProviders"];

/** How people may sign in here (public): the password form, and a single sign-on button when
 * the server has an OpenID provider configured. */
export const providersQuery = queryOptions({
  queryKey: ["auth", "providers"],
  queryFn: ({ signal }) => unwrap(api.GET("/api/v1/auth/providers", { signal })),
  staleTime: 10 * 60_000,
});

export function useProviders() {
  return useQuery(providersQuery);
}
