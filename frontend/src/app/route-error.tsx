import { Alert, Button, Container, Stack } from "@mantine/core";
import { isRouteErrorResponse, useRouteError } from "react-router";

/** Last resort for a page that failed to load or render (a stale chunk after a deploy, a bug). */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Alert color="red" title="This page could not be shown">
          {message}
        </Alert>
        <Button onClick={() => window.location.reload()} w="fit-content">
          Reload
        </Button>
      </Stack>
    </Container>
  );
}
