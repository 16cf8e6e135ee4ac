import { useCallback } from "react";
import { useSearchParams } from "react-router";

/** The current page of a list, kept in the URL (`?page=3`) so reload and back work. */
export function usePageParam(pageSize: number, param = "page") {
  const [searchParams, setSearchParams] = useSearchParams();
  const parsed = Number.parseInt(searchParams.get(param) ?? "1", 10);
  const page = Number.isFinite(parsed) && parsed > 0 ? parsed : 1;
  const setPage = useCallback(
    (next: number) =>
      setSearchParams((current) => {
        const params = new URLSearchParams(current);
        if (next <= 1) params.delete(param);
        else params.set(param, String(next));
        return params;
      }),
    [param, setSearchParams],
  );
  return { page, setPage, limit: pageSize, offset: (page - 1) * pageSize };
}
