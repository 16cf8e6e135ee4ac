/** Query keys of runs, under their project's (invalidating a project's runs reaches them all). */
export const runKeys = {
  /** the runs of every project (the first screen) */
  everywhere: ["runs"] as const,
  project: (projectId: number) => ["projects", projectId, "runs"] as const,
  list: (projectId: number | undefined, params: object) =>
    projectId === undefined
      ? (["runs", "all", params] as const)
      : (["projects", projectId, "runs", "list", params] as const),
  detail: (projectId: number, runId: number) => ["projects", projectId, "runs", runId] as const,
  part: (projectId: number, runId: number, ...part: readonly unknown[]) =>
    ["projects", projectId, "runs", runId, ...part] as const,
};
