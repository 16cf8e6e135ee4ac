import { MantineProvider } from "@mantine/core";
import { act, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RunMeta, RunParams } from "@/features/runs/components/run-meta";
import { makeRun } from "@/testing/make-run";

afterEach(() => {
  vi.useRealTimers();
});

function show(run = makeRun(), Part: typeof RunMeta = RunMeta) {
  return render(
    <MantineProvider>
      <MemoryRouter>
        <Part run={run} />
      </MemoryRouter>
    </MantineProvider>,
  );
}

describe("RunMeta", () => {
  it("keeps counting the time a run has been running while nothing else changes", () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse("2025-03-01T12:00:06.6Z")); // started 5.6 s ago
    show(makeRun({ started_at: "2025-03-01T12:00:01Z" }));
    expect(screen.getByText("5.60 s")).toBeInTheDocument();
    // a quiet task (a pause): no new line, no new status, no new props
    act(() => vi.advanceTimersByTime(20_000));
    expect(screen.getByText("25.6 s")).toBeInTheDocument();
  });

  it("says why a queued run waits, and nothing once it runs", () => {
    const reason = "no worker of runner group 'dmz' is online";
    const { unmount } = show(
      makeRun({ status: "queued", started_at: null, waiting_reason: reason }),
    );
    expect(screen.getByLabelText("Why it waits")).toHaveTextContent(`Waiting: ${reason}`);
    unmount();
    show(makeRun({ status: "running", waiting_reason: reason }));
    expect(screen.queryByLabelText("Why it waits")).toBeNull();
  });

  it("shows a finished run's duration, which no longer moves", () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse("2025-03-01T13:00:00Z"));
    show(
      makeRun({
        status: "successful",
        started_at: "2025-03-01T12:00:01Z",
        finished_at: "2025-03-01T12:00:31Z",
      }),
    );
    expect(screen.getByText(/30\.0 s/)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByText(/30\.0 s/)).toBeInTheDocument();
  });
});

describe("RunParams", () => {
  it("names the repository at its commit, the inventory and the keys, not their ids", () => {
    const run = makeRun({
      commit_hash: "0123456789abcdef0123",
      params: {
        ...makeRun().params,
        environment_id: 6,
        become_key_id: 8,
        vault_key_ids: [9, 10],
        limit: "web",
      },
      refs: {
        repository: "playbooks",
        inventory: "prod-hosts",
        environment: "prod-env",
        ssh_key: null,
        become_key: "sudo",
        vault_keys: ["vault-a", ""],
      },
    });
    show(run, RunParams);
    const table = screen.getByRole("table", { name: "Run parameters" });
    const row = (label: string) =>
      screen.getByRole("rowheader", { name: label }).closest("tr")?.textContent;
    expect(table).toBeInTheDocument();
    expect(row("Repository")).toBe("Repositoryplaybooks @ 0123456789ab");
    expect(row("Inventory")).toBe("Inventoryprod-hosts");
    expect(row("Environment")).toBe("Environmentprod-env");
    expect(row("Become key")).toBe("Become keysudo");
    expect(row("SSH key")).toBe("SSH key—");
    expect(row("Vault keys")).toBe("Vault keysvault-a, #10 (deleted)");
    expect(row("Limit")).toBe("Limitweb");
    expect(screen.queryByRole("rowheader", { name: "Host scope" })).not.toBeInTheDocument();
  });

  it("shows the host scope a grantee's run was launched under", () => {
    const run = makeRun({
      params: { ...makeRun().params, limit: "db", host_scope: ["dev", "test"] },
    });
    show(run, RunParams);
    const row = screen.getByRole("rowheader", { name: "Host scope" }).closest("tr");
    expect(row?.textContent).toBe("Host scopedev, test (the launcher's grant)");
  });

  it("shows ids where the reader may not see the names", () => {
    const run = makeRun({
      params: { ...makeRun().params, become_key_id: 8 },
      refs: { repository: "playbooks", inventory: "prod-hosts", become_key: null },
    });
    show(run, RunParams);
    const row = screen.getByRole("rowheader", { name: "Become key" }).closest("tr");
    expect(row?.textContent).toBe("Become key#8");
  });

  it("says whether requirements were installed, and with whose Ansible", () => {
    const row = (label: string) =>
      screen.getByRole("rowheader", { name: label }).closest("tr")?.textContent;
    const { unmount } = show(
      makeRun({ params: { ...makeRun().params, install_requirements: true, ansible_venv: "" } }),
      RunParams,
    );
    expect(row("Requirements")).toBe("Requirementsinstalled before the playbook");
    expect(row("Ansible")).toBe("Ansiblethe server's own");
    unmount();
    show(
      makeRun({
        params: { ...makeRun().params, install_requirements: false, ansible_venv: "/opt/a216" },
      }),
      RunParams,
    );
    expect(row("Requirements")).toBe("Requirementsnot installed");
    expect(row("Ansible")).toBe("Ansible/opt/a216");
  });
});
