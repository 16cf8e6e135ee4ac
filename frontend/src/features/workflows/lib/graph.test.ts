import { describe, expect, it } from "vitest";
import { checkGraph, findCycle, layers, layout, type GraphEdge } from "./graph";

const e = (from: string, to: string, on: GraphEdge["on"] = "success"): GraphEdge => ({
  from,
  to,
  on,
});
const nodes = (...keys: string[]) => keys.map((key) => ({ key }));

describe("checkGraph", () => {
  it("accepts a diamond", () => {
    expect(
      checkGraph(nodes("a", "b", "c", "d"), [e("a", "b"), e("a", "c"), e("b", "d"), e("c", "d")]),
    ).toEqual({});
  });

  it("names duplicate and malformed keys", () => {
    const errors = checkGraph(nodes("a", "a", "Bad key"), []);
    expect(errors["nodes.1.key"]).toMatch(/already the key of node 1/);
    expect(errors["nodes.2.key"]).toMatch(/a–z/);
  });

  it("names edges to unknown nodes, self edges and second edges", () => {
    const errors = checkGraph(nodes("a", "b"), [
      e("a", "x"),
      e("y", "b"),
      e("a", "a"),
      e("a", "b"),
      e("a", "b", "failure"),
    ]);
    expect(errors["edges.0.to"]).toMatch(/'x'/);
    expect(errors["edges.1.from"]).toMatch(/'y'/);
    expect(errors["edges.2.to"]).toMatch(/own node/);
    expect(errors["edges.4"]).toMatch(/same two nodes/);
  });

  it("names the edge that closes a cycle", () => {
    const errors = checkGraph(nodes("a", "b", "c"), [e("a", "b"), e("b", "c"), e("c", "a")]);
    expect(errors).toEqual({ "edges.2": "makes a cycle: a → b → c → a" });
  });

  it("bounds the document", () => {
    const many = nodes(...Array.from({ length: 101 }, (_, i) => `n${i}`));
    expect(checkGraph(many, [])).toHaveProperty("nodes");
  });
});

describe("findCycle", () => {
  it("finds none in a DAG and one in a loop", () => {
    expect(findCycle(["a", "b"], [e("a", "b")])).toBeNull();
    expect(findCycle(["a", "b"], [e("a", "b"), e("b", "a")])).toEqual({
      edge: 1,
      path: ["a", "b", "a"],
    });
  });
});

describe("layers and layout", () => {
  it("puts a node below its deepest parent", () => {
    expect(
      layers(["a", "b", "c", "d"], [e("a", "b"), e("b", "c"), e("a", "c"), e("a", "d")]),
    ).toEqual([["a"], ["b", "d"], ["c"]]);
  });

  it("keeps nodes with no edges on the first layer, in document order", () => {
    expect(layers(["z", "y"], [])).toEqual([["z", "y"]]);
  });

  it("places boxes in rows, centred, without overlaps", () => {
    const placed = layout(["a", "b", "c"], [e("a", "b"), e("a", "c")]);
    const [a, b, c] = ["a", "b", "c"].map((k) => placed.nodes.get(k));
    expect(b?.y).toBe(c?.y);
    expect(a && b && a.y < b.y).toBe(true);
    expect(b && c && c.x - b.x >= 150).toBe(true);
    expect(a && b && c && a.x > b.x && a.x < c.x).toBe(true);
    expect(placed.width).toBeGreaterThanOrEqual(2 * 150);
  });

  it("survives a cycle being typed (no endless loop)", () => {
    expect(
      layers(["a", "b"], [e("a", "b"), e("b", "a")])
        .flat()
        .sort(),
    ).toEqual(["a", "b"]);
  });
});
