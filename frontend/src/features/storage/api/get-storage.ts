import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The database's size, biggest tables, retention in force and last prune (admins). Not
 * refreshed on its own: on SQLite the table sizes read every page of the file. */
export function useStorage() {
  return useQuery({
    queryKey: ["storage"],
    queryFn: () => unwrap(api.GET("/api/v1/storage")),
  });
}
