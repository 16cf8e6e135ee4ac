import { Button, type ButtonProps } from "@mantine/core";
import type { ReactNode } from "react";

/** The part of an infinite query (useInfiniteQuery) that walks to older pages. */
interface OlderPages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

interface OlderButtonProps extends Omit<ButtonProps, "children" | "loading"> {
  pages: OlderPages;
  /** "Older runs" */
  children: ReactNode;
}

/** The button that loads a list's next, older page; nothing once the list is whole. */
export function OlderButton({ pages, children, ...button }: OlderButtonProps) {
  if (!pages.hasNextPage) return null;
  return (
    <Button
      variant="default"
      {...button}
      loading={pages.isFetchingNextPage}
      onClick={() => void pages.fetchNextPage()}
    >
      {children}
    </Button>
  );
}
