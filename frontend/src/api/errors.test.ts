import { describe, expect, it } from "vitest";
import { ApiError, isApiError, parseProblem } from "@/api/errors";

describe("parseProblem", () => {
  it("reads a problem+json validation error with its field errors", () => {
    const error = parseProblem(422, "Unprocessable Content", {
      type: "about:blank",
      title: "Invalid Input",
      status: 422,
      detail: "name: String should have at least 1 character",
      errors: [{ field: "name", message: "String should have at least 1 character" }],
    });
    expect(error).toBeInstanceOf(ApiError);
    expect(isApiError(error)).toBe(true);
    expect(error.status).toBe(422);
    expect(error.title).toBe("Invalid Input");
    expect(error.message).toBe("name: String should have at least 1 character");
    expect(error.fieldErrors).toEqual([
      { field: "name", message: "String should have at least 1 character" },
    ]);
  });

  it("keeps only well-formed field errors", () => {
    const error = parseProblem(422, "", {
      detail: "bad",
      errors: [{ field: "a", message: "x" }, { field: 3, message: "y" }, null, "z"],
    });
    expect(error.fieldErrors).toEqual([{ field: "a", message: "x" }]);
  });

  it("falls back to the title, then the status text, for the detail", () => {
    expect(parseProblem(403, "Forbidden", { title: "Forbidden" }).detail).toBe("Forbidden");
    expect(parseProblem(500, "Internal Server Error", {}).detail).toBe("Internal Server Error");
  });

  it("uses a plain-text body as the detail, but not an HTML error page", () => {
    expect(parseProblem(502, "Bad Gateway", "upstream timed out").detail).toBe(
      "upstream timed out",
    );
    expect(parseProblem(502, "Bad Gateway", "<html><body>502</body></html>").detail).toBe(
      "Bad Gateway",
    );
    expect(parseProblem(504, "", undefined).detail).toBe("HTTP 504");
  });
});
