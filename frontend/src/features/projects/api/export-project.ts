import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { attachmentName } from "@/features/projects/lib/export-file";

/** Download the project's export document (no secret in it) as a JSON file. */
export function useExportProject(projectId: number) {
  return useMutation({
    mutationFn: async () => {
      const call = api.GET("/api/v1/projects/{project_id}/export", {
        params: { path: { project_id: projectId } },
      });
      const { response } = await call;
      const document = await unwrap(call);
      const name = attachmentName(
        response.headers.get("content-disposition"),
        `steward-project-${projectId}.json`,
      );
      const url = URL.createObjectURL(
        new Blob([JSON.stringify(document, null, 2)], { type: "application/json" }),
      );
      const link = window.document.createElement("a");
      link.href = url;
      link.download = name;
      link.click();
      // after the click has been handled: revoking at once can cancel the download
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      return name;
    },
  });
}
