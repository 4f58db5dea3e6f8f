// Time allocation (timeman.ts): the soft budget and hard limit from the clock, and the search
// parameters that set them.

import {
  setClock, setMoveTime, softBudgetMs, hardLimitMs, moveOverheadMs, startClock, elapsedMs, mayStartIteration,
} from "../../assembly/timeman";
import {
  setParam, paramDefault, PARAM_TIME_MOVES_LEFT, PARAM_TIME_MIN_MOVES_LEFT, PARAM_TIME_INCREMENT_SHARE,
  PARAM_TIME_HARD_FACTOR, PARAM_TIME_ITERATION_GROWTH,
} from "../../assembly/search-params";

function budgets(timeLeftMs: i32, incMs: i32, movesToGo: i32, gamePly: i32): string {
  setClock(timeLeftMs, incMs, movesToGo, gamePly);
  return `${softBudgetMs()} ${hardLimitMs()}`;
}

describe("time allocation", () => {
  it("gives a sudden-death move the time left over the moves assumed left, plus three quarters of the increment", () => {
    // 10+0.1 at the start: (10000 - overhead) / 40 + 75; the hard limit 4.5 times that.
    const left = <f64>(10000 - moveOverheadMs);
    setClock(10000, 100, 0, 0);
    expect(softBudgetMs()).toBeCloseTo(left / 40 + 75);
    expect(hardLimitMs()).toBeCloseTo((left / 40 + 75) * 4.5);
    // A quarter of a move fewer per ply, at least 20.
    setClock(10000, 100, 0, 40);
    expect(softBudgetMs()).toBeCloseTo(left / 30 + 75);
    setClock(10000, 100, 0, 200);
    expect(softBudgetMs()).toBeCloseTo(left / 20 + 75);
    // At most half the time left, the hard limit at most three quarters.
    setClock(1000, 2000, 0, 0);
    expect(softBudgetMs()).toBeCloseTo(<f64>(1000 - moveOverheadMs) * 0.5);
    expect(hardLimitMs()).toBeCloseTo(<f64>(1000 - moveOverheadMs) * 0.75);
    // moves to go: the time over those moves (at most 50); the last move before the control
    // takes 60% and may go to 80%.
    setClock(10000, 0, 10, 0);
    expect(softBudgetMs()).toBeCloseTo(left / 10);
    setClock(10000, 0, 1, 0);
    expect(softBudgetMs()).toBeCloseTo(left * 0.6);
    expect(hardLimitMs()).toBeCloseTo(left * 0.8);
    // movetime: the whole time, less the overhead, for both.
    setMoveTime(500);
    expect(softBudgetMs()).toBe(<f64>(500 - moveOverheadMs));
    expect(hardLimitMs()).toBe(<f64>(500 - moveOverheadMs));
  });

  it("takes its constants from the search parameters", () => {
    const base = budgets(60000, 600, 0, 60);
    const params: i32[] = [PARAM_TIME_MOVES_LEFT, PARAM_TIME_MIN_MOVES_LEFT, PARAM_TIME_INCREMENT_SHARE, PARAM_TIME_HARD_FACTOR];
    // Ply 60 of 60+0.6: 40 - 15 = 25 moves left; the minimum moves it at 30.
    const changed: i32[] = [30, 30, 50, 300];
    for (let i = 0; i < params.length; i++) {
      setParam(params[i], changed[i]);
      expect(budgets(60000, 600, 0, 60)).not.toBe(base, "parameter " + params[i].toString());
      setParam(params[i], paramDefault(params[i]));
      expect(budgets(60000, 600, 0, 60)).toBe(base);
    }
    setClock(60000, 600, 0, 60);
    expect(softBudgetMs()).toBeCloseTo(<f64>(60000 - moveOverheadMs) / 25 + 450);
    // 30 - 15 moves is below the minimum of 20.
    setParam(PARAM_TIME_MOVES_LEFT, 30);
    setClock(60000, 600, 0, 60);
    expect(softBudgetMs()).toBeCloseTo(<f64>(60000 - moveOverheadMs) / 20 + 450);
    setParam(PARAM_TIME_MOVES_LEFT, paramDefault(PARAM_TIME_MOVES_LEFT));
  });

  it("starts an iteration only when the time used times the growth factor fits the soft budget", () => {
    // A soft budget of a second; 400 ms used. Growth 1 fits (400 ms of 1,000); growth 3 does
    // not (1,200 ms), nor does growth 1 when the budget is shrunk to a tenth.
    setClock(40000 + moveOverheadMs, 0, 0, 0);
    expect(softBudgetMs()).toBe(1000);
    startClock();
    while (elapsedMs() < 400) {}
    setParam(PARAM_TIME_ITERATION_GROWTH, 100);
    expect(mayStartIteration(1.0)).toBe(true);
    expect(mayStartIteration(0.1)).toBe(false);
    setParam(PARAM_TIME_ITERATION_GROWTH, 300);
    expect(mayStartIteration(1.0)).toBe(false);
    setParam(PARAM_TIME_ITERATION_GROWTH, paramDefault(PARAM_TIME_ITERATION_GROWTH));
  });
});
