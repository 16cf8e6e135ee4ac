import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import { LocalRootsPanel, parseLocalRoots } from "@/features/projects/components/local-roots-panel";

function project(localRoots: string[]): Schemas["ProjectRead"] {
  return {
    id: 1,
    name: "infra",
    description: "",
    max_parallel_runs: null,
    runner_group_id: null,
    local_roots: localRoots,
    created_at: "2026-11-27T07:00:00Z",
    updated_at: "2026-11-27T07:00:00Z",
    permissions: [],
  };
}

function renderPanel(localRoots: string[], isAdmin: boolean) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MantineProvider>
        <LocalRootsPanel project={project(localRoots)} isAdmin={isAdmin} />
      </MantineProvider>
    </QueryClientProvider>,
  );
}

describe("LocalRootsPanel", () => {
  it("lets an admin edit the directories, one a line", () => {
    renderPanel(["/srv/roots/a", "/srv/roots/b"], true);
    expect(screen.getByRole("textbox", { name: /Directories/ })).toHaveValue(
      "/srv/roots/a\n/srv/roots/b",
    );
    expect(screen.getByRole("button", { name: "Save directories" })).toBeInTheDocument();
  });

  it("shows others the directories, without a way to change them", () => {
    renderPanel(["/srv/roots/a"], false);
    expect(screen.getByRole("list", { name: "Local directories" })).toHaveTextContent(
      "/srv/roots/a",
    );
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Save directories" })).not.toBeInTheDocument();
  });

  it("says who assigns them when there are none", () => {
    renderPanel([], false);
    expect(screen.getByText(/None assigned/)).toHaveTextContent("An admin assigns");
  });
});

describe("parseLocalRoots", () => {
  it("takes one directory a line, trimmed, without blank lines", () => {
    expect(parseLocalRoots(" /srv/roots/a \n\n/srv/roots/b\n")).toEqual([
      "/srv/roots/a",
      "/srv/roots/b",
    ]);
  });
});
