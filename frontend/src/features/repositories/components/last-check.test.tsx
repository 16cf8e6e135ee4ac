import { MantineProvider } from "@mantine/core";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import { LastCheck } from "@/features/repositories/components/repositories-table";

const repository = (check: Partial<Schemas["RepositoryRead"]>): Schemas["RepositoryRead"] => ({
  id: 1,
  project_id: 1,
  name: "playbooks",
  description: "",
  kind: "git",
  url: "https://git.example.com/ops.git",
  ref: "main",
  key_id: null,
  ssh_known_hosts: "",
  local_problem: null,
  checked_at: null,
  checked_commit: "",
  check_problem: "",
  created_at: "2026-11-27T10:00:00Z",
  updated_at: "2026-11-27T10:00:00Z",
  ...check,
});

const shown = (check: Partial<Schemas["RepositoryRead"]>) =>
  render(
    <MantineProvider>
      <LastCheck repository={repository(check)} />
    </MantineProvider>,
  );

describe("LastCheck", () => {
  it("says never when the server has not tried", () => {
    shown({});
    expect(screen.getByText("Never")).toBeInTheDocument();
  });

  it("shows the commit the ref pointed at when it answered", () => {
    shown({ checked_at: "2026-11-27T11:00:00Z", checked_commit: "0123456789abcdef0123" });
    expect(screen.getByText("Reachable")).toBeInTheDocument();
    expect(screen.getByText(/^0123456789ab · /)).toBeInTheDocument();
  });

  it("shows why it failed", () => {
    shown({ checked_at: "2026-11-27T11:00:00Z", check_problem: "ref: no branch or tag 'x'" });
    expect(screen.getByText("Failed")).toBeInTheDocument();
    expect(screen.getByText("ref: no branch or tag 'x'")).toBeInTheDocument();
    expect(screen.queryByText("Reachable")).not.toBeInTheDocument();
  });
});
