import { describe, expect, it } from "vitest";
import { filtersOf, searchInWords, taskListOf } from "./searchWords.ts";

describe("a saved search in words", () => {
  it("names the words, the category and the least reward, as the server names a search", () => {
    expect(searchInWords({ q: "review", category: "data_entry", min_reward: 5 })).toBe(
      "review in Data entry, at least 5 coins",
    );
    expect(searchInWords({ q: "review", category: "data_entry", min_reward: 5 }, true)).toBe(
      "“review” in Data entry, at least 5 coins",
    );
  });

  it("leaves out what the search does not narrow", () => {
    expect(searchInWords({ q: "review" })).toBe("review");
    expect(searchInWords({ category: "surveys" })).toBe("Surveys");
    expect(searchInWords({ min_reward: 1 })).toBe("Any task, at least 1 coin");
    expect(searchInWords({})).toBe("Any task");
  });

  it("opens the task list with the search's filters, the order left at its default", () => {
    const search = { q: "rate apps", category: "app_testing" as const, min_reward: 3 };
    expect(taskListOf(filtersOf(search))).toBe(
      "/dashboard/task-list?q=rate+apps&category=app_testing&min_reward=3",
    );
    expect(taskListOf(filtersOf({ q: null, category: null, min_reward: null }))).toBe("/dashboard/task-list");
  });
});
