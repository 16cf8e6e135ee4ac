import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { projectKeys } from "@/features/projects/api/query-keys";

export type ImportRequest = Schemas["ImportRequest"];
export type ImportReport = Schemas["ImportReport"];

/** Import an export document as a new project; with `dry_run` only the report, nothing made. */
export function useImportProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ImportRequest) => unwrap(api.POST("/api/v1/projects/import", { body })),
    onSuccess: (report) =>
      report.dry_run ? undefined : queryClient.invalidateQueries({ queryKey: projectKeys.all }),
  });
}
