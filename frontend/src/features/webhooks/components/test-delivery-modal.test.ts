import { describe, expect, it } from "vitest";
import { toTestDelivery } from "@/features/webhooks/components/test-delivery-modal";

describe("toTestDelivery", () => {
  it("sends the scheme's sample for an empty body, and the given headers", () => {
    expect(
      toTestDelivery({
        body: "  ",
        headers: [
          { id: "a", name: " X-GitHub-Event ", value: "ping" },
          { id: "b", name: "", value: "dropped" },
        ],
        sign: true,
        launch: false,
      }),
    ).toEqual({ body: null, headers: { "X-GitHub-Event": "ping" }, sign: true, launch: false });
  });

  it("sends a JSON body as an object and refuses anything else", () => {
    const base = { headers: [], sign: false, launch: true };
    expect(toTestDelivery({ ...base, body: '{"ref": "refs/tags/v1"}' })).toEqual({
      body: { ref: "refs/tags/v1" },
      headers: {},
      sign: false,
      launch: true,
    });
    expect(toTestDelivery({ ...base, body: "[1]" })).toEqual({
      error: expect.stringContaining("must be a JSON object"),
    });
  });
});
