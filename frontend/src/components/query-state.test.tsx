import { useQuery } from "@tanstack/react-query";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import { QueryState } from "@/components/query-state";
import { renderWithProviders } from "@/testing/render";

function Page({ answer }: { answer: () => Promise<string> }) {
  const query = useQuery({ queryKey: ["thing"], queryFn: answer, retry: false });
  return (
    <QueryState
      query={query}
      loading="Loading the thing"
      notFound="Thing not found"
      notFoundText="It does not exist, or you may not see it."
      back={<a href="/things">Back to things</a>}
    >
      {(name) => <h1>{name}</h1>}
    </QueryState>
  );
}

describe("QueryState", () => {
  it("shows a named loader while the query is pending", () => {
    renderWithProviders(<Page answer={() => new Promise(() => {})} />);
    expect(screen.getByLabelText("Loading the thing")).toBeInTheDocument();
    expect(screen.queryByRole("heading")).not.toBeInTheDocument();
  });

  it("renders the page with the data once it is there", async () => {
    renderWithProviders(<Page answer={() => Promise.resolve("rman-check")} />);
    expect(await screen.findByRole("heading", { name: "rman-check" })).toBeInTheDocument();
    expect(screen.queryByLabelText("Loading the thing")).not.toBeInTheDocument();
  });

  it("says not found, in its own words, on a 404, with the way back", async () => {
    const missing = new ApiError(404, "Not Found", "Template 3 not found", []);
    renderWithProviders(<Page answer={() => Promise.reject(missing)} />);
    expect(await screen.findByText("Thing not found")).toBeInTheDocument();
    expect(screen.getByText(/It does not exist, or you may not see it\./)).toBeInTheDocument();
    expect(screen.queryByText(/Template 3 not found/)).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to things" })).toBeInTheDocument();
  });

  it("shows any other failure as an error with the server's message", async () => {
    const broken = new ApiError(500, "Internal Server Error", "the database is down", []);
    renderWithProviders(<Page answer={() => Promise.reject(broken)} />);
    expect(await screen.findByText("Error")).toBeInTheDocument();
    expect(screen.getByText(/the database is down/)).toBeInTheDocument();
    expect(screen.queryByText("Thing not found")).not.toBeInTheDocument();
  });

  it("names a part's failure, a 404 included, when it has no not-found of its own", async () => {
    const gone = new ApiError(404, "Not Found", "Webhook 4 not found", []);
    function Part() {
      const query = useQuery({ queryKey: ["part"], queryFn: () => Promise.reject(gone) });
      return (
        <QueryState query={query} loading="Loading deliveries" failed="Could not load deliveries">
          {() => <p>rows</p>}
        </QueryState>
      );
    }
    renderWithProviders(<Part />);
    expect(await screen.findByText("Could not load deliveries")).toBeInTheDocument();
    expect(screen.getByText("Webhook 4 not found")).toBeInTheDocument();
  });
});
