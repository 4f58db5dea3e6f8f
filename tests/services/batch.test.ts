// The distributed perft's records: a batch (job data) and its result (job return value) are
// read field by field, and anything else is refused with the field's name.
import { describe, expect, it } from "vitest";
import { jobId, parseBatch, parseResult, queueName, resultField, runKeys } from "../../services/perft/batch.js";

const BATCH = {
  v: 1, signature: "wasmchess-0.1.0-0123456789ab", run: "run-1", pass: 1, keySeed: 0, batch: 3,
  fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", chess960: false, depth: 4,
  paths: ["e2e4 e7e5", "d2d4 d7d5", "a7a8q"], counts: ["1", "2", "18446744073709551617"],
};
const RESULT = { v: 1, signature: BATCH.signature, run: "run-1", pass: 2, batch: 3, nodes: "63201697707300000", positions: 3, seconds: 0.5, worker: "w" };

describe("perft batch records", () => {
  it("reads a batch and a result as they are written", () => {
    expect(parseBatch(BATCH)).toEqual(BATCH);
    expect(parseBatch({ ...BATCH, paths: [""], counts: ["1"] }).paths).toEqual([""]); // ply 0: the root
    expect(parseResult(RESULT)).toEqual(RESULT);
  });

  it.each([
    [{ ...BATCH, v: 2 }, /record version 2, this worker reads version 1/],
    [{ ...BATCH, extra: 1 }, /unknown field "extra"/],
    [{ ...BATCH, pass: 3 }, /pass must be 1 or 2/],
    [{ ...BATCH, run: "a:b" }, /run id "a:b"/],
    [{ ...BATCH, depth: 21 }, /depth must be an integer from 0 to 20/],
    [{ ...BATCH, keySeed: -1 }, /keySeed must be an integer/],
    [{ ...BATCH, paths: ["e2e4 e7e9", "d2d4", "a7a8q"] }, /paths\[0\] is not a sequence of UCI moves/],
    [{ ...BATCH, paths: [] }, /paths must be an array of 1 to/],
    [{ ...BATCH, counts: ["1", "2"] }, /counts must be an array as long as paths/],
    [{ ...BATCH, counts: ["1", "0", "3"] }, /counts\[1\] must be a positive integer's digits/],
    [{ ...BATCH, counts: [1, 2, 3] }, /counts\[0\]/],
    [{ ...BATCH, chess960: "no" }, /chess960 must be a boolean/],
    [[], /not an object/],
    [null, /not an object/],
  ])("refuses a bad batch %#", (data, message) => {
    expect(() => parseBatch(data)).toThrow(message);
    expect(() => parseBatch(data)).toThrow(/^bad perft batch: /);
  });

  it.each([
    [{ ...RESULT, nodes: "-1" }, /nodes must be an integer's digits/],
    [{ ...RESULT, nodes: 5 }, /nodes must be a string/],
    [{ ...RESULT, seconds: Number.NaN }, /seconds must be a number >= 0/],
    [{ ...RESULT, positions: 0 }, /positions must be an integer/],
    [{ ...RESULT, worker: "" }, /worker must be a string/],
  ])("refuses a bad result %#", (data, message) => {
    expect(() => parseResult(data)).toThrow(message);
  });

  it("names a run's queue, jobs and keys without ':' where BullMQ refuses it", () => {
    expect(queueName("wasmchess-0.1.0-abc:def")).toBe("perft-wasmchess-0.1.0-abc_def");
    expect(jobId("run-1", 2, 17)).toBe("run-1.p2.b17");
    expect(resultField(2, 17)).toBe("2:17");
    expect(runKeys("run-1")).toEqual({ meta: "wasmchess:perft-run:run-1", results: "wasmchess:perft-run:run-1:results", retries: "wasmchess:perft-run:run-1:retries" });
  });
});
