// as-pect configuration of the network build: every spec of tests/assembly/ plus the network's
// own (tests/assembly/nnue/), compiled with NNUE=1 and SIMD (as-pect.nnue.asconfig.json beside it).
import base from "./as-pect.config.js";

export default { ...base, entries: ["tests/assembly/*.spec.ts", "tests/assembly/nnue/*.spec.ts"] };
