import { describe, expect, it } from "vitest";
import { createCommonSearches } from "./common-searches.ts";

describe("the memory of common searches", () => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 10, 24, 12, 0, seconds));

  it("remembers a common search for ten seconds, then forgets it", () => {
    const searches = createCommonSearches();
    expect(searches.isCommon("review", at(0))).toBe(false);
    searches.remember("review", at(0));
    expect(searches.isCommon("review", at(9))).toBe(true);
    expect(searches.isCommon("logo", at(9))).toBe(false);
    expect(searches.isCommon("review", at(10))).toBe(false);
    expect(searches.isCommon("review", at(11))).toBe(false);
  });

  it("holds at most a thousand searches, dropping the oldest first", () => {
    const searches = createCommonSearches();
    for (let index = 0; index < 1001; index += 1) searches.remember(`word${index}`, at(0));
    expect(searches.isCommon("word0", at(1))).toBe(false);
    expect(searches.isCommon("word1", at(1))).toBe(true);
    expect(searches.isCommon("word1000", at(1))).toBe(true);
    // Remembering one again makes it the newest.
    searches.remember("word1", at(2));
    searches.remember("word1001", at(2));
    expect(searches.isCommon("word1", at(3))).toBe(true);
    expect(searches.isCommon("word2", at(3))).toBe(false);
  });
});
