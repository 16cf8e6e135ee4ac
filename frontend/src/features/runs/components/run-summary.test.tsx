import { MantineProvider } from "@mantine/core";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { HostRecap } from "@/features/runs/api/get-run-output";
import { RunSummary } from "@/features/runs/components/run-summary";

const host = (name: string, counts: Partial<HostRecap>): HostRecap => ({
  host: name,
  ok: 0,
  changed: 0,
  failed: 0,
  unreachable: 0,
  skipped: 0,
  rescued: 0,
  ignored: 0,
  ...counts,
});

describe("RunSummary", () => {
  it("counts each host once, by its worst result, and names the failed ones", async () => {
    const onShowHost = vi.fn();
    const onFirstFailure = vi.fn();
    render(
      <MantineProvider>
        <RunSummary
          hosts={[
            host("alpha", { ok: 1, failed: 1 }),
            host("beta", { ok: 2 }),
            host("gamma", { ok: 1, changed: 1 }),
            host("delta", { unreachable: 1 }),
          ]}
          failed
          onShowHost={onShowHost}
          onFirstFailure={onFirstFailure}
        />
      </MantineProvider>,
    );
    const recap = screen.getByRole("group", { name: "Recap" });
    expect(recap).toHaveTextContent("4 hosts: 1 ok · 1 changed · 1 failed · 1 unreachable");
    await userEvent.click(screen.getByRole("button", { name: "alpha" }));
    expect(onShowHost).toHaveBeenCalledWith("alpha");
    await userEvent.click(screen.getByRole("button", { name: "Jump to first failure" }));
    expect(onFirstFailure).toHaveBeenCalled();
    expect(screen.queryByRole("button", { name: "beta" })).toBeNull();
  });

  it("shows nothing before any host reports", () => {
    render(
      <MantineProvider>
        <RunSummary hosts={[]} failed={false} onShowHost={() => {}} onFirstFailure={() => {}} />
      </MantineProvider>,
    );
    expect(screen.queryByRole("group", { name: "Recap" })).toBeNull();
  });
});
