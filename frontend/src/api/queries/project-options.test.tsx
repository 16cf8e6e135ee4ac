import { renderHook, waitFor } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import { useKeyOptions, useTemplateOptions } from "@/api/queries/project-options";
import { testQueryClient } from "@/testing/render";

type Key = Schemas["KeyRead"];

const key = (id: number, name: string, kind: Key["kind"]) => ({ id, name, kind }) as Key;
const keys = [
  key(1, "deploy", "ssh"),
  key(2, "hub", "secret"),
  key(3, "vault", "vault_password"),
  key(4, "dba", "login_password"),
];

/** The hooks read what the project's lists hold in the cache (no server in a unit test). */
function withLists(lists: Record<string, unknown[]>) {
  const client = testQueryClient();
  for (const [resource, items] of Object.entries(lists)) {
    client.setQueryData(["projects", 1, resource, "options"], { items, total: items.length });
  }
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

describe("useKeyOptions", () => {
  it("lists the keys of the kinds asked for, by name and kind", async () => {
    const { result } = renderHook(() => useKeyOptions(1, ["secret", "login_password"]), {
      wrapper: withLists({ keys }),
    });
    await waitFor(() => expect(result.current.data).toBeDefined());
    expect(result.current.data).toEqual([
      { value: "2", label: "hub (secret)" },
      { value: "4", label: "dba (login_password)" },
    ]);
  });

  it("keeps the key chosen now even when of another kind, and labels as told", async () => {
    const { result } = renderHook(
      () => useKeyOptions(1, ["ssh"], { keep: "3", label: (k) => k.name }),
      { wrapper: withLists({ keys }) },
    );
    await waitFor(() => expect(result.current.data).toBeDefined());
    expect(result.current.data).toEqual([
      { value: "1", label: "deploy" },
      { value: "3", label: "vault" },
    ]);
  });
});

describe("useTemplateOptions", () => {
  const templates = [
    { id: 5, name: "patch", permissions: ["view", "run"] },
    { id: 6, name: "backup", permissions: ["view", "run", "write"] },
    { id: 7, name: "audit", permissions: ["view", "write"] },
  ];

  it("offers the templates on which the caller holds every permission asked for", async () => {
    const { result } = renderHook(() => useTemplateOptions(1, ["write", "run"]), {
      wrapper: withLists({ templates }),
    });
    await waitFor(() => expect(result.current.data).toBeDefined());
    expect(result.current.data).toEqual([{ value: "6", label: "backup" }]);
  });

  it("offers them all when no permission is asked for", async () => {
    const { result } = renderHook(() => useTemplateOptions(1), {
      wrapper: withLists({ templates }),
    });
    await waitFor(() => expect(result.current.data).toBeDefined());
    expect(result.current.data?.map((o) => o.label)).toEqual(["patch", "backup", "audit"]);
  });
});
