/** Every URL of the console, built in one place. */
export const paths = {
  home: () => "/",
  login: (next?: string) =>
    next && next !== "/" ? `/login?next=${encodeURIComponent(next)}` : "/login",
  project: (projectId: number, section?: string) =>
    section ? `/projects/${projectId}/${section}` : `/projects/${projectId}`,
};
