import { useOutletContext } from "react-router";
import type { Schemas } from "@/api/client";

export interface ProjectContext {
  project: Schemas["ProjectRead"];
}

/** The project that the project layout loaded, for its section pages. */
export function useProjectContext(): ProjectContext {
  return useOutletContext<ProjectContext>();
}
