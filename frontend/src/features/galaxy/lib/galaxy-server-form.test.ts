import { describe, expect, it } from "vitest";
import {
  GALAXY_KEY_KINDS,
  galaxyKeyLabel,
  toGalaxyServerBody,
  toGalaxyServerValues,
  validateServerName,
} from "@/features/galaxy/lib/galaxy-server-form";

describe("galaxy server form", () => {
  it("starts empty, certificates checked, and sends no SSO URL or key as null", () => {
    const values = toGalaxyServerValues(null);
    expect(values).toMatchObject({ validate_certs: true, position: 0, key_id: "", auth_url: "" });
    expect(
      toGalaxyServerBody({
        ...values,
        name: " hub ",
        url: "https://hub.example.com/api/ ",
        position: "",
      }),
    ).toEqual({
      name: "hub",
      description: "",
      url: "https://hub.example.com/api/",
      auth_url: null,
      key_id: null,
      validate_certs: true,
      position: 0,
    });
  });

  it("round-trips a stored server, its key as a picker value", () => {
    const values = toGalaxyServerValues({
      id: 4,
      project_id: 1,
      name: "rh_hub",
      description: "certified",
      url: "https://console.redhat.com/api/automation-hub/",
      auth_url: "https://sso.redhat.com/token",
      key_id: 9,
      key_name: "hub token",
      validate_certs: false,
      position: 2,
      created_at: "",
      updated_at: "",
    });
    expect(values.key_id).toBe("9");
    expect(toGalaxyServerBody(values)).toEqual({
      name: "rh_hub",
      description: "certified",
      url: "https://console.redhat.com/api/automation-hub/",
      auth_url: "https://sso.redhat.com/token",
      key_id: 9,
      validate_certs: false,
      position: 2,
    });
  });

  it("takes names ansible-galaxy can read from its environment only", () => {
    expect(validateServerName("galaxy_2")).toBeNull();
    expect(validateServerName("")).toBe("Required");
    for (const bad of ["Hub", "2hub", "my-hub", "my hub"]) {
      expect(validateServerName(bad)).not.toBeNull();
    }
  });

  it("offers only token and login-and-password keys, named by what galaxy does with them", () => {
    expect([...GALAXY_KEY_KINDS].sort()).toEqual(["login_password", "secret"]);
    expect(galaxyKeyLabel({ id: 2, name: "hub", kind: "secret" })).toBe("hub (token)");
    expect(galaxyKeyLabel({ id: 4, name: "pulp", kind: "login_password" })).toBe(
      "pulp (login and password)",
    );
  });
});
