import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter, useLocation } from "react-router";
import { describe, expect, it } from "vitest";
import { useTaskFilters } from "./taskFilters.ts";

/** useTaskFilters on a page at `address`, with the address it leads to. */
function onPage(address: string) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[address]}>{children}</MemoryRouter>
  );
  return renderHook(() => ({ ...useTaskFilters(), search: useLocation().search }), { wrapper });
}

describe("a task browser's filters in the address", () => {
  it("reads the search, category, least reward and order", () => {
    const { result } = onPage("/tasks?q=survey&category=research&min_reward=5&sort=price_desc");
    expect(result.current.filters).toEqual({
      q: "survey",
      category: "research",
      min_reward: 5,
      sort: "price_desc",
    });
    expect(result.current.isFiltered).toBe(true);
  });

  it("reads an empty field as no filter, and an address the rules refuse as none at all", () => {
    expect(onPage("/tasks?q=&category=&sort=newest").result.current).toMatchObject({
      filters: { sort: "newest" },
      isFiltered: false,
    });
    expect(onPage("/tasks?sort=cheapest&min_reward=-3").result.current).toMatchObject({
      filters: { sort: "newest" },
      isFiltered: false,
    });
  });

  it("writes a change into the address, keeping the rest and leaving the default order out", () => {
    const { result } = onPage("/tasks?q=survey&sort=price_asc");
    act(() => result.current.change({ category: "research" }));
    expect(new URLSearchParams(result.current.search).get("category")).toBe("research");
    expect(new URLSearchParams(result.current.search).get("q")).toBe("survey");
    act(() => result.current.change({ sort: "newest" }));
    expect(new URLSearchParams(result.current.search).has("sort")).toBe(false);
    act(() => result.current.clear());
    expect(result.current.search).toBe("");
    expect(result.current.isFiltered).toBe(false);
  });
});
