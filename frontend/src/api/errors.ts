/** Errors from the API, parsed from RFC 9457 problem+json: `{title, status, detail, errors?}`. */

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly fieldErrors: readonly FieldError[];

  constructor(status: number, title: string, detail: string, fieldErrors: readonly FieldError[]) {
    super(detail || title || `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.fieldErrors = fieldErrors;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function fieldErrors(value: unknown): FieldError[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (typeof item !== "object" || item === null) return [];
    const { field, message } = item as Record<string, unknown>;
    return typeof field === "string" && typeof message === "string" ? [{ field, message }] : [];
  });
}

/**
 * Build an ApiError from a failed response's status and its body, as openapi-fetch parsed it
 * (an object when the body was JSON, else the raw text, else undefined).
 */
export function parseProblem(status: number, statusText: string, body: unknown): ApiError {
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    const problem = body as Record<string, unknown>;
    const title = text(problem.title) || statusText;
    const detail = text(problem.detail) || title;
    return new ApiError(status, title, detail, fieldErrors(problem.errors));
  }
  const raw = text(body).trim();
  // a proxy's HTML error page says nothing useful to a person filling a form
  const detail = raw && !raw.startsWith("<") ? raw.slice(0, 500) : statusText || `HTTP ${status}`;
  return new ApiError(status, statusText, detail, []);
}
