import { Alert, Anchor, Stack } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";

interface DetailsPageProps {
  /** the page's id from the URL (`idParam`), null when the URL holds none */
  id: number | null;
  /** what shows when it holds none: "Schedule not found" */
  notFound: string;
  /** where the back link leads, and its words ("All schedules") */
  back: string;
  backLabel: string;
  children: (id: number) => ReactNode;
}

/** The page of one thing of a project: a back link above it, "not found" for an id that is not
 * one, and a fresh page (forms, dialogs) when the id changes. */
export function DetailsPage({ id, notFound, back, backLabel, children }: DetailsPageProps) {
  if (id === null) {
    return <Alert color="yellow" title={notFound} />;
  }
  return (
    <Stack key={id}>
      <Anchor component={Link} to={back} size="sm">
        ← {backLabel}
      </Anchor>
      {children(id)}
    </Stack>
  );
}
