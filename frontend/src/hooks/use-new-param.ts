import { useCallback } from "react";
import { useSearchParams } from "react-router";

/**
 * Whether a section's create dialog is open, kept in the URL (`?new=1`): a link can open it
 * (the empty states' "New …" of another section). Closing it replaces the entry, so Back does
 * not open it again.
 */
export function useNewParam(): [boolean, (open: boolean) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const open = searchParams.has("new");
  const setOpen = useCallback(
    (next: boolean) =>
      setSearchParams(
        (current) => {
          const params = new URLSearchParams(current);
          if (next) params.set("new", "1");
          else params.delete("new");
          return params;
        },
        { replace: !next },
      ),
    [setSearchParams],
  );
  return [open, setOpen];
}
