import { describe, expect, it } from "vitest";
import { ADHOC_DEFAULTS, parseArgs, toAdhocBody } from "@/features/inventories/lib/adhoc";

describe("toAdhocBody", () => {
  it("sends a free-form module's text as it is, Jinja included", () => {
    const body = toAdhocBody(
      { ...ADHOC_DEFAULTS, module: "shell", args: "df -h {{ x }}", limit: " db* ", forks: 3 },
      ["command", "shell"],
    );
    expect(body).toEqual({
      module: "shell",
      args: "df -h {{ x }}",
      limit: "db*",
      become: false,
      forks: 3,
      verbosity: 1,
      launch_type: "ui",
    });
  });

  it("reads NAME=VALUE pairs or a JSON object for the other modules", () => {
    expect(parseArgs(`name=nginx state="re started"`)).toEqual({
      name: "nginx",
      state: "re started",
    });
    expect(parseArgs('{"name": "x", "enabled": true}')).toEqual({ name: "x", enabled: true });
    expect(parseArgs("")).toEqual({});
    expect(() => parseArgs("[1]")).toThrow("JSON object");
    expect(() => parseArgs("no pairs")).toThrow("NAME=VALUE");
  });

  it("sends a become key only with become", () => {
    const values = { ...ADHOC_DEFAULTS, module: "ping", become_key_id: "4", ssh_key_id: "2" };
    expect(toAdhocBody(values, []).become_key_id).toBeUndefined();
    expect(toAdhocBody({ ...values, become: true }, []).become_key_id).toBe(4);
    expect(toAdhocBody(values, []).ssh_key_id).toBe(2);
  });
});
