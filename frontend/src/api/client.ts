import createClient, { type Middleware } from "openapi-fetch";
import { getCsrfToken } from "@/api/csrf";
import { parseProblem } from "@/api/errors";
import type { components, paths } from "@/api/schema";

export type Schemas = components["schemas"];

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const csrf: Middleware = {
  onRequest({ request }) {
    const token = getCsrfToken();
    if (token && !SAFE_METHODS.has(request.method)) request.headers.set("X-CSRF-Token", token);
    return request;
  },
};

/** The one client of the REST API; every path and body is checked against the OpenAPI schema. */
export const api = createClient<paths>({ credentials: "same-origin" });
api.use(csrf);

export interface ApiResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Await an openapi-fetch call: its data on success, else throw an ApiError. */
export async function unwrap<T>(call: Promise<ApiResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw parseProblem(response.status, response.statusText, error);
  return data as T;
}
