import { describe, expect, it } from "vitest";
import { nextLevelNeeds, workerReputationOf } from "./trust.ts";

describe("nextLevelNeeds (rule R21)", () => {
  it("asks a new worker with nothing decided for 10 decided submissions at 80%", () => {
    expect(nextLevelNeeds(workerReputationOf({ approved: 0, rejected: 0 }))).toEqual({
      level: "bronze",
      decided: 10,
      more_decided: 10,
      rate: 80,
      rate_met: false,
    });
  });

  it("counts what is left and whether the rate is met already", () => {
    expect(nextLevelNeeds(workerReputationOf({ approved: 4, rejected: 0 }))).toMatchObject({
      level: "bronze",
      more_decided: 6,
      rate_met: true,
    });
  });

  it("asks only for the rate when there are enough decided submissions", () => {
    // 300 decided at 70%: still New, Bronze needs 80%.
    expect(nextLevelNeeds(workerReputationOf({ approved: 210, rejected: 90 }))).toMatchObject({
      level: "bronze",
      more_decided: 0,
      rate_met: false,
    });
  });

  it("points a Bronze worker at Silver and a Silver one at Gold", () => {
    expect(nextLevelNeeds(workerReputationOf({ approved: 12, rejected: 0 }))).toMatchObject({
      level: "silver",
      decided: 50,
      more_decided: 38,
      rate: 90,
    });
    expect(nextLevelNeeds(workerReputationOf({ approved: 60, rejected: 0 }))).toMatchObject({
      level: "gold",
      decided: 200,
      more_decided: 140,
      rate: 95,
    });
  });

  it("has nothing above Gold", () => {
    expect(nextLevelNeeds(workerReputationOf({ approved: 200, rejected: 0 }))).toBeNull();
  });
});
