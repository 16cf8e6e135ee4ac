import { act, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { LogViewer } from "@/features/runs/components/log-viewer";
import { LineStore, type StoredLine } from "@/features/runs/lib/line-store";

function millionLines() {
  const fetchLines = vi.fn(async (after: number, limit: number): Promise<StoredLine[]> =>
    Array.from({ length: limit }, (_, i) => ({
      n: after + 1 + i,
      t: `\x1b[0;32mok: [host${after + 1 + i}]\x1b[0m`,
    })),
  );
  const store = new LineStore(fetchLines);
  store.setCount(1_000_000);
  return { store, fetchLines };
}

const settle = () => act(() => new Promise((done) => setTimeout(done, 0)));

/** The viewer of `store` in a 400 px box, not following unless told, nothing marked. */
function renderViewer(store: LineStore, props: Partial<Parameters<typeof LogViewer>[0]> = {}) {
  return render(
    <LogViewer
      store={store}
      follow={false}
      onFollowChange={() => {}}
      highlight={null}
      scrollTo={null}
      initialHeight={400}
      {...props}
    />,
  );
}

describe("LogViewer", () => {
  it("renders only a window of a million-line log and loads just its chunk", async () => {
    const { store, fetchLines } = millionLines();
    const { container } = renderViewer(store);
    await settle();
    const rows = container.querySelectorAll("[data-line]");
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(60);
    expect(fetchLines).toHaveBeenCalledTimes(1);
    expect(fetchLines).toHaveBeenCalledWith(-1, 1000);
    // line numbers are shown from 1; the ANSI colour became a span, not markup
    expect(rows[0]?.textContent).toBe("1ok: [host0]");
    const coloured = screen.getAllByText("ok: [host0]")[0];
    expect(coloured?.tagName).toBe("SPAN");
    expect(container.innerHTML).not.toContain("\x1b");
    expect(store.loadedLines).toBe(1000);
  });

  it("scrolls to a requested line, loads its chunk and marks it", async () => {
    const { store, fetchLines } = millionLines();
    const { container } = renderViewer(store, {
      highlight: 765_432,
      scrollTo: { row: 765_432, seq: 1 },
    });
    await settle();
    expect(fetchLines).toHaveBeenCalledWith(764_999, 1000);
    const marked = container.querySelector("[data-highlight]");
    expect(marked?.getAttribute("data-line")).toBe("765432");
    expect(marked?.textContent).toContain("ok: [host765432]");
  });

  it("follows the end of a growing log", async () => {
    const store = new LineStore(async () => []);
    const { container } = renderViewer(store, { follow: true });
    act(() => store.add(Array.from({ length: 500 }, (_, n) => ({ n, t: `line ${n}` }))));
    await settle();
    const numbers = [...container.querySelectorAll("[data-line]")].map((row) =>
      Number(row.getAttribute("data-line")),
    );
    expect(Math.max(...numbers)).toBe(499);
    expect(Math.min(...numbers)).toBeGreaterThan(400);
  });
});
