import { Alert, Center, Loader } from "@mantine/core";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { isApiError } from "@/api/errors";

interface QueryStateProps<T> {
  query: UseQueryResult<T>;
  /** the loader's name, e.g. "Loading the schedule" */
  loading: string;
  /** the title when the server answers 404, e.g. "Schedule not found" (none: an error) */
  notFound?: string;
  /** the title of any other failure, e.g. "Could not load messages" */
  failed?: string;
  /** a part of a page (a list under a record): a smaller loader */
  small?: boolean;
  /** what a 404 says instead of the server's message (why it may be hidden, say) */
  notFoundText?: string;
  /** after the message: a way back, say */
  back?: ReactNode;
  /** the page itself, once the data is there */
  children: (data: T) => ReactNode;
}

/**
 * One record's page while it loads, when it fails (a 404 is "not found", anything else an
 * error with the server's message) and once it is there.
 */
export function QueryState<T>({
  query,
  loading,
  notFound,
  notFoundText,
  failed = "Error",
  small = false,
  back,
  children,
}: QueryStateProps<T>) {
  if (query.isPending) {
    return (
      <Center py={small ? "md" : "xl"}>
        <Loader size={small ? "sm" : undefined} aria-label={loading} />
      </Center>
    );
  }
  if (query.isError) {
    const missing = notFound !== undefined && isApiError(query.error) && query.error.status === 404;
    return (
      <Alert color={missing ? "yellow" : "red"} title={missing ? notFound : failed}>
        {missing && notFoundText !== undefined ? notFoundText : query.error.message}
        {back !== undefined && <> {back}</>}
      </Alert>
    );
  }
  return children(query.data);
}
