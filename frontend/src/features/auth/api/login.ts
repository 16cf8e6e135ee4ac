import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas } from "@/api/client";
import { setCsrfToken } from "@/api/csrf";
import { ApiError, parseProblem } from "@/api/errors";
import { meQuery } from "@/features/auth/api/get-me";
import { type LoginChallenge, loginChallenge } from "@/features/auth/lib/login-steps";

export type LoginInput = Schemas["LoginRequest"];

/** A refused sign-in; `challenge` says when it is about the second factor. */
export class LoginRefused extends ApiError {
  readonly challenge: LoginChallenge | null;

  constructor(problem: ApiError, challenge: LoginChallenge | null) {
    super(problem.status, problem.title, problem.detail, problem.fieldErrors);
    this.name = "LoginRefused";
    this.challenge = challenge;
  }
}

export function challengeOf(error: unknown): LoginChallenge | null {
  return error instanceof LoginRefused ? error.challenge : null;
}

async function signIn(body: LoginInput) {
  const { data, error, response } = await api.POST("/api/v1/auth/login", { body });
  if (!response.ok) {
    const problem = parseProblem(response.status, response.statusText, error);
    throw new LoginRefused(problem, loginChallenge(error));
  }
  return data as NonNullable<typeof data>;
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (session) => {
      setCsrfToken(session.csrf_token);
      queryClient.setQueryData(meQuery.queryKey, session.user);
    },
  });
}
