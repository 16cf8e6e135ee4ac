/**
 * The workflow document as a graph, in the browser: the checks the server makes on save (so
 * the editor can say what is wrong before sending), and the layered layout of the SVG preview.
 * The server still decides; its 422 names the same fields.
 */

export interface GraphNode {
  key: string;
}

export interface GraphEdge {
  from: string;
  to: string;
  on: "success" | "failure" | "always";
}

export const NODES_MAX = 100;
export const EDGES_MAX = 300;
export const KEY_PATTERN = /^[a-z0-9_-]{1,64}$/;

/** field path (as the server names it: `nodes.1.key`, `edges.0.to`) -> what is wrong */
export type GraphErrors = Record<string, string>;

/** Every problem of the document, by field; empty when the server would accept the graph. */
export function checkGraph(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): GraphErrors {
  const errors: GraphErrors = {};
  if (nodes.length > NODES_MAX) errors.nodes = `at most ${NODES_MAX} nodes`;
  if (edges.length > EDGES_MAX) errors.edges = `at most ${EDGES_MAX} edges`;
  const seen = new Map<string, number>();
  nodes.forEach((node, i) => {
    if (!KEY_PATTERN.test(node.key)) {
      errors[`nodes.${i}.key`] = "1–64 characters of a–z, 0–9, _ and -";
    } else if (seen.has(node.key)) {
      errors[`nodes.${i}.key`] = `already the key of node ${(seen.get(node.key) ?? 0) + 1}`;
    } else {
      seen.set(node.key, i);
    }
  });
  const pairs = new Set<string>();
  edges.forEach((edge, j) => {
    if (!seen.has(edge.from)) errors[`edges.${j}.from`] = `no node has the key '${edge.from}'`;
    if (!seen.has(edge.to)) errors[`edges.${j}.to`] = `no node has the key '${edge.to}'`;
    if (edge.from === edge.to) errors[`edges.${j}.to`] = "an edge may not lead to its own node";
    const pair = `${edge.from}\u0000${edge.to}`;
    if (pairs.has(pair)) errors[`edges.${j}`] = "a second edge between the same two nodes";
    pairs.add(pair);
  });
  if (Object.keys(errors).length === 0) {
    const cycle = findCycle(
      nodes.map((n) => n.key),
      edges,
    );
    if (cycle) errors[`edges.${cycle.edge}`] = `makes a cycle: ${cycle.path.join(" → ")}`;
  }
  return errors;
}

/** An edge closing a cycle (its index) and the cycle's keys, or null. */
export function findCycle(
  keys: readonly string[],
  edges: readonly GraphEdge[],
): { edge: number; path: string[] } | null {
  const out = new Map<string, { edge: number; to: string }[]>(keys.map((k) => [k, []]));
  edges.forEach((e, edge) => out.get(e.from)?.push({ edge, to: e.to }));
  const state = new Map<string, number>(); // 1 on the path, 2 done
  for (const root of keys) {
    if (state.has(root)) continue;
    const path = [root];
    const stack = [{ key: root, next: 0 }];
    state.set(root, 1);
    while (stack.length > 0) {
      const top = stack.at(-1);
      if (!top) break;
      const step = out.get(top.key)?.[top.next];
      if (!step) {
        stack.pop();
        state.set(path.pop() ?? "", 2);
        continue;
      }
      top.next += 1;
      if (!out.has(step.to)) continue;
      if (state.get(step.to) === 1) {
        return { edge: step.edge, path: [...path.slice(path.indexOf(step.to)), step.to] };
      }
      if (!state.has(step.to)) {
        state.set(step.to, 1);
        path.push(step.to);
        stack.push({ key: step.to, next: 0 });
      }
    }
  }
  return null;
}

/** Keys by depth (the longest path from a root), each layer in document order. */
export function layers(keys: readonly string[], edges: readonly GraphEdge[]): string[][] {
  const depth = new Map(keys.map((k) => [k, 0]));
  const known = edges.filter((e) => depth.has(e.from) && depth.has(e.to) && e.from !== e.to);
  for (let round = 0; round < keys.length; round++) {
    let changed = false;
    for (const e of known) {
      const next = (depth.get(e.from) ?? 0) + 1;
      if ((depth.get(e.to) ?? 0) < next) {
        depth.set(e.to, next);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const rows: string[][] = [];
  for (const key of keys) {
    const d = depth.get(key) ?? 0;
    while (rows.length <= d) rows.push([]);
    rows[d]?.push(key);
  }
  return rows;
}

export interface Placed {
  key: string;
  x: number;
  y: number;
}

export interface Layout {
  width: number;
  height: number;
  nodes: Map<string, Placed>;
}

export const BOX = { width: 150, height: 40, gapX: 30, gapY: 50, pad: 10 };

/** Positions (top-left corners) of every node: layers top to bottom, each row centred. */
export function layout(keys: readonly string[], edges: readonly GraphEdge[]): Layout {
  const rows = layers(keys, edges);
  const widest = Math.max(1, ...rows.map((r) => r.length));
  const width = BOX.pad * 2 + widest * BOX.width + (widest - 1) * BOX.gapX;
  const height = BOX.pad * 2 + rows.length * BOX.height + Math.max(0, rows.length - 1) * BOX.gapY;
  const nodes = new Map<string, Placed>();
  rows.forEach((row, depth) => {
    const rowWidth = row.length * BOX.width + (row.length - 1) * BOX.gapX;
    const left = (width - rowWidth) / 2;
    row.forEach((key, i) => {
      nodes.set(key, {
        key,
        x: left + i * (BOX.width + BOX.gapX),
        y: BOX.pad + depth * (BOX.height + BOX.gapY),
      });
    });
  });
  return { width, height: Math.max(height, BOX.pad * 2), nodes };
}
