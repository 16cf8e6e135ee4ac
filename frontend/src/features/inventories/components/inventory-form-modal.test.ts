import { describe, expect, it } from "vitest";
import { toInventoryBody } from "@/features/inventories/components/inventory-form-modal";

const values = {
  name: "prod",
  description: "",
  kind: "static" as const,
  format: "ini" as const,
  content: "db1\n",
  repository_id: "4",
  path: "inventories/prod.ini",
  metrics_endpoint: "http://{host}:44322",
};

describe("toInventoryBody", () => {
  it("sends the text of a static inventory and no repository", () => {
    expect(toInventoryBody(values)).toEqual({
      name: "prod",
      description: "",
      kind: "static",
      metrics_endpoint: "http://{host}:44322",
      format: "ini",
      content: "db1\n",
    });
  });

  it("sends the repository and path of a file inventory and no text", () => {
    expect(toInventoryBody({ ...values, kind: "file" })).toEqual({
      name: "prod",
      description: "",
      kind: "file",
      metrics_endpoint: "http://{host}:44322",
      content: "",
      repository_id: 4,
      path: "inventories/prod.ini",
    });
  });
});
