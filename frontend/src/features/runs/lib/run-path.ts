import { paths } from "@/lib/paths";

/** The run page's URL. */
export const runPath = (projectId: number, runId: number) =>
  paths.project(projectId, `runs/${runId}`);
