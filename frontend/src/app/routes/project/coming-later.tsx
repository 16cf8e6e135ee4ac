import { Alert } from "@mantine/core";
import { useLocation } from "react-router";
import { PROJECT_SECTIONS } from "@/app/routes/project/sections";

/** Placeholder for the sections whose API is still being built (see sections.ts). */
export function Component() {
  const { pathname } = useLocation();
  const section = PROJECT_SECTIONS.find((s) => pathname.endsWith(`/${s.path}`));
  return (
    <Alert color="gray" title={section?.label ?? "Not available yet"}>
      This part of the console arrives with its API.
    </Alert>
  );
}
