// The wasm module's exports: the small API the TypeScript bindings are built on, one module
// per audience. The network build's entry (index-nnue.ts) adds the embedded network.
//
//   api-rules.ts     positions and moves: FEN, UCI and SAN, legal moves, game state, perft
//   api-search.ts    the search: limits, options, result, info records, evaluation, bench
//   api-records.ts   learning data: positions packed into records for data generation
//   api-tuning.ts    the tuning build's evaluation weights and traces
//   api-network.ts   the NNUE network: loading a network file, its shape, its kernels
//   api-tablebase.ts Syzygy endgame tables: registering files, probing WDL and DTZ

export * from "./api-rules";
export * from "./api-search";
export * from "./api-records";
export * from "./api-tuning";
export * from "./api-network";
export * from "./api-tablebase";

import { setStartPosition } from "./api-rules";

setStartPosition();

// ---------------------------------------------------------------- constants
// Values the bindings use, defined once in the engine and exported as module globals (read
// as `exports.NAME.value`). Those the bindings need before an instance exists are restated
// in TypeScript (bindings/validate.ts, bindings/core.ts) and tests/package/constants.test.ts checks
// each against its export here.

export { START_FEN } from "./fen";
export { HASH_MIN_MB, HASH_MAX_MB, HASH_DEFAULT_MB } from "./tt";
export { MAX_SEARCH_DEPTH, MULTIPV_MAX, MULTIPV_DEFAULT } from "./limits";
export { MOVE_OVERHEAD_MAX_MS, MOVE_OVERHEAD_DEFAULT_MS } from "./timeman";
export { FEATURE_ALL } from "./search-params";
export { SKILL_MAX } from "./skill";
export { VALUE_MATE, VALUE_MATE_IN_MAX_PLY, VALUE_TB_WIN, VALUE_TB_WIN_IN_MAX_PLY } from "./score";
export { POLL_CONTINUE, POLL_STOP, POLL_PONDERHIT } from "./host";
export { TERM_NB } from "./eval";
export { PSQT_MAX } from "./nnue";
export { TB_PROBE_FAILED } from "./syzygy-probe";
export { SPLIT_MAX_PLY, SPLIT_RECORD_BYTES, SPLIT_CHUNK_RECORDS } from "./perft-split";
