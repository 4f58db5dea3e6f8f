// The constants the bindings restate in TypeScript (they are needed before an instance
// exists) against the engine's exports of the same values (assembly/index.ts), in each build.
import { describe, it, expect } from "vitest";
import { createInstance, buildUrl } from "../../bindings/wasm.js";
import { START_FEN, POLL_CONTINUE, POLL_STOP, POLL_PONDERHIT } from "../../bindings/core.js";
import {
  HASH_MIN_MB, HASH_MAX_MB, HASH_DEFAULT_MB, MULTIPV_MAX, MULTIPV_DEFAULT, MOVE_OVERHEAD_MAX_MS, MOVE_OVERHEAD_DEFAULT_MS,
  SEARCH_FEATURES_MAX, MAX_SEARCH_DEPTH,
} from "../../bindings/validate.js";
import { SKILL_MAX } from "../../bindings/strength.js";
import { PSQT_MAX } from "../../learn/net-file.js";
import { MAX_SPLIT_PLY, SPLIT_RECORD_BYTES, SPLIT_CHUNK_RECORDS } from "../../bindings/perft-split.js";

describe.each(["classical", "nnue"] as const)("constants restated by the bindings, %s build", (build) => {
  it("equal the engine's exports", async () => {
    const w = await createInstance({}, buildUrl(build));
    expect({
      START_FEN,
      HASH_MIN_MB,
      HASH_MAX_MB,
      HASH_DEFAULT_MB,
      MULTIPV_MAX,
      MULTIPV_DEFAULT,
      MOVE_OVERHEAD_MAX_MS,
      MOVE_OVERHEAD_DEFAULT_MS,
      SEARCH_FEATURES_MAX,
      MAX_SEARCH_DEPTH,
      SKILL_MAX,
      POLL_CONTINUE,
      POLL_STOP,
      POLL_PONDERHIT,
      PSQT_MAX,
      MAX_SPLIT_PLY,
      SPLIT_RECORD_BYTES,
      SPLIT_CHUNK_RECORDS,
    }).toEqual({
      START_FEN: w.START_FEN.value,
      HASH_MIN_MB: w.HASH_MIN_MB.value,
      HASH_MAX_MB: w.HASH_MAX_MB.value,
      HASH_DEFAULT_MB: w.HASH_DEFAULT_MB.value,
      MULTIPV_MAX: w.MULTIPV_MAX.value,
      MULTIPV_DEFAULT: w.MULTIPV_DEFAULT.value,
      MOVE_OVERHEAD_MAX_MS: w.MOVE_OVERHEAD_MAX_MS.value,
      MOVE_OVERHEAD_DEFAULT_MS: w.MOVE_OVERHEAD_DEFAULT_MS.value,
      SEARCH_FEATURES_MAX: w.FEATURE_ALL.value,
      MAX_SEARCH_DEPTH: w.MAX_SEARCH_DEPTH.value,
      SKILL_MAX: w.SKILL_MAX.value,
      POLL_CONTINUE: w.POLL_CONTINUE.value,
      POLL_STOP: w.POLL_STOP.value,
      POLL_PONDERHIT: w.POLL_PONDERHIT.value,
      PSQT_MAX: w.PSQT_MAX.value,
      MAX_SPLIT_PLY: w.SPLIT_MAX_PLY.value,
      SPLIT_RECORD_BYTES: w.SPLIT_RECORD_BYTES.value,
      SPLIT_CHUNK_RECORDS: w.SPLIT_CHUNK_RECORDS.value,
    });
  });

  it("match what a fresh instance reports", async () => {
    const w = await createInstance({}, buildUrl(build));
    expect(w.hashMb()).toBe(HASH_DEFAULT_MB);
    expect(w.searchFeatures()).toBe(SEARCH_FEATURES_MAX);
    w.setStartPosition();
    expect(w.getFen()).toBe(START_FEN);
  });

  it("the engine names every evaluation term it reports", async () => {
    const w = await createInstance({}, buildUrl(build));
    const names = Array.from({ length: w.TERM_NB.value }, (_, t) => w.evalTermName(t));
    expect(names).toEqual(["Material", "Pawns", "Passed", "Mobility", "Pieces", "King safety", "Tempo", "Threats"]);
    expect(w.evalTermName(w.TERM_NB.value)).toBe("");
  });
});
