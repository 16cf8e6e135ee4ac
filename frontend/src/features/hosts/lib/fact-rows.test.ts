import { describe, expect, it } from "vitest";
import { factRows, searchFacts, showValue } from "@/features/hosts/lib/fact-rows";

const facts = {
  ansible_kernel: "6.1.0",
  ansible_mounts: [
    { mount: "/", size_total: 100 },
    { mount: "/boot", size_total: 10 },
  ],
  ansible_interfaces: ["lo", "eth0"],
  ansible_local: {},
  "odd.key": true,
};

describe("factRows", () => {
  it("lists every leaf by its dotted path, in key order", () => {
    expect(factRows(facts)).toEqual([
      { path: "ansible_interfaces", value: '["lo","eth0"]' },
      { path: "ansible_kernel", value: "6.1.0" },
      { path: "ansible_local", value: "{}" },
      { path: "ansible_mounts.0.mount", value: "/" },
      { path: "ansible_mounts.0.size_total", value: "100" },
      { path: "ansible_mounts.1.mount", value: "/boot" },
      { path: "ansible_mounts.1.size_total", value: "10" },
      { path: '"odd.key"', value: "true" },
    ]);
  });
});

describe("searchFacts", () => {
  const rows = factRows(facts);
  it("finds by path or value, every word", () => {
    expect(searchFacts(rows, "kernel").map((r) => r.path)).toEqual(["ansible_kernel"]);
    expect(searchFacts(rows, "MOUNT /boot").map((r) => r.path)).toEqual(["ansible_mounts.1.mount"]);
    expect(searchFacts(rows, "")).toHaveLength(rows.length);
    expect(searchFacts(rows, "nothing-like-it")).toEqual([]);
  });
});

describe("showValue", () => {
  it("shows strings as they are and the rest as JSON", () => {
    expect(showValue("x")).toBe("x");
    expect(showValue({ a: 1 })).toBe('{"a":1}');
    expect(showValue(undefined)).toBe("—");
  });
});
