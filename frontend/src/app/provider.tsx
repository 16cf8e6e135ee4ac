import { MantineProvider } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router";
import { setCsrfToken } from "@/api/csrf";
import { isApiError } from "@/api/errors";
import { router } from "@/app/router";
import { theme } from "@/app/theme";
import { LOGOUT_KEY } from "@/features/auth/api/logout";
import { paths } from "@/lib/paths";

/** Any 401 means the session is gone (expired, signed out elsewhere): sign in again. */
function signInAgain(error: unknown) {
  if (!isApiError(error) || error.status !== 401) return;
  const { pathname, search } = router.state.location;
  if (pathname === "/login") return; // a wrong password is the login form's business
  if (queryClient.isMutating({ mutationKey: LOGOUT_KEY }) > 0) return; // signing out: it goes to login
  setCsrfToken(null);
  queryClient.clear();
  void router.navigate(paths.login(pathname + search), { replace: true });
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: signInAgain }),
  mutationCache: new MutationCache({ onError: signInAgain }),
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // a 4xx won't change by asking again; network trouble and 5xx might
      retry: (failures, error) => !(isApiError(error) && error.status < 500) && failures < 2,
    },
  },
});

export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto">
      {/* at the bottom: at the top they covered the header's account button */}
      <Notifications position="bottom-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
