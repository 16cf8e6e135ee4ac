import { useForm } from "@mantine/form";
import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import { applyServerErrors } from "@/lib/form-errors";

function projectForm() {
  return renderHook(() =>
    useForm({
      mode: "uncontrolled",
      initialValues: { name: "", description: "", limits: { max_parallel_runs: 4 } },
    }),
  ).result;
}

describe("applyServerErrors", () => {
  it("puts each field error next to its field and leaves nothing for the form", () => {
    const form = projectForm();
    const error = new ApiError(422, "Invalid Input", "name: too short", [
      { field: "name", message: "String should have at least 1 character" },
      { field: "limits.max_parallel_runs", message: "should be at most 256" },
    ]);
    let rest: string | null = "unset";
    act(() => {
      rest = applyServerErrors(form.current, error);
    });
    expect(rest).toBeNull();
    expect(form.current.errors).toEqual({
      name: "String should have at least 1 character",
      "limits.max_parallel_runs": "should be at most 256",
    });
  });

  it("joins several messages for one field", () => {
    const form = projectForm();
    const error = new ApiError(422, "Invalid Input", "", [
      { field: "name", message: "too long" },
      { field: "name", message: "has a slash" },
    ]);
    act(() => void applyServerErrors(form.current, error));
    expect(form.current.errors.name).toBe("too long; has a slash");
  });

  it("returns errors about fields the form doesn't have, with their names", () => {
    const form = projectForm();
    const error = new ApiError(422, "Invalid Input", "", [
      { field: "name", message: "taken" },
      { field: "colour", message: "unknown field" },
    ]);
    let rest: string | null = null;
    act(() => {
      rest = applyServerErrors(form.current, error);
    });
    expect(rest).toBe("colour: unknown field");
    expect(form.current.errors).toEqual({ name: "taken" });
  });

  it("returns the detail of a problem without field errors", () => {
    const form = projectForm();
    const error = new ApiError(409, "Conflict", "a project named 'db' exists", []);
    expect(applyServerErrors(form.current, error)).toBe("a project named 'db' exists");
    expect(form.current.errors).toEqual({});
  });

  it("returns the message of an error that is not from the API", () => {
    const form = projectForm();
    expect(applyServerErrors(form.current, new TypeError("Failed to fetch"))).toBe(
      "Failed to fetch",
    );
  });

  it("drops a tagged union's tag from the field path", () => {
    const form = projectForm();
    const error = new ApiError(422, "Invalid Input", "", [
      { field: "ssh.name", message: "too short" },
    ]);
    act(() => void applyServerErrors(form.current, error, { unionTag: "ssh" }));
    expect(form.current.errors).toEqual({ name: "too short" });
  });
});

describe("applyServerErrors on nested forms", () => {
  function templateForm() {
    return renderHook(() =>
      useForm({
        mode: "uncontrolled",
        initialValues: {
          extra_vars_text: "{}",
          survey: [
            { variable: "a", choices: [] as string[] },
            { variable: "b", choices: ["x"] },
            { variable: "c", choices: [] as string[] },
          ],
          secrets: [{ name: "TOKEN", key_id: "" }],
          env_vars: [{ name: "HOME", value: "/" }],
        },
      }),
    ).result;
  }

  it("maps pydantic's dotted and the services' bracketed list indexes to the item's input", () => {
    const form = templateForm();
    const error = new ApiError(422, "Invalid Input", "", [
      { field: "survey.2.choices", message: "a choice question needs at least one choice" },
      { field: "secrets[0].key_id", message: "key 9 is not in project 'db'" },
    ]);
    let rest: string | null = "unset";
    act(() => {
      rest = applyServerErrors(form.current, error);
    });
    expect(rest).toBeNull();
    expect(form.current.errors).toEqual({
      "survey.2.choices": "a choice question needs at least one choice",
      "secrets.0.key_id": "key 9 is not in project 'db'",
    });
  });

  it("shows an error below a field on the nearest field the form has, naming the rest", () => {
    const form = templateForm();
    const error = new ApiError(422, "Invalid Input", "", [
      { field: "env_vars.2BAD", message: "an environment variable name starts with a letter" },
      { field: "extra_vars.if", message: "not a valid variable name" },
    ]);
    act(
      () =>
        void applyServerErrors(form.current, error, { aliases: { extra_vars: "extra_vars_text" } }),
    );
    expect(form.current.errors).toEqual({
      env_vars: "2BAD: an environment variable name starts with a letter",
      extra_vars_text: "if: not a valid variable name",
    });
  });
});
