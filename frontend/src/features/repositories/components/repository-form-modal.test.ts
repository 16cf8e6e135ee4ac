import { describe, expect, it } from "vitest";
import {
  keyKindsForUrl,
  localDirectoryHint,
} from "@/features/repositories/components/repository-form-modal";

describe("keyKindsForUrl", () => {
  it("offers the key kinds the server accepts for each kind of git URL", () => {
    expect(keyKindsForUrl("https://git.example.com/ops.git")).toEqual(["login_password"]);
    expect(keyKindsForUrl("ssh://git@git.example.com/ops.git")).toEqual(["ssh"]);
    expect(keyKindsForUrl("git@github.com:org/ops.git")).toEqual(["ssh"]);
    expect(keyKindsForUrl("file:///srv/ops")).toEqual([]);
    expect(keyKindsForUrl("")).toEqual(["ssh", "login_password"]);
  });
});

describe("localDirectoryHint", () => {
  it("names the project's local directories, or says who assigns them", () => {
    expect(localDirectoryHint(["/srv/roots/a", "/srv/roots/b"])).toContain(
      "inside /srv/roots/a or /srv/roots/b",
    );
    expect(localDirectoryHint([])).toContain("an admin assigns them in the project's settings");
  });
});
