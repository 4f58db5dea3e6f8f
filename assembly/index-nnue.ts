// The network build's entry: the engine's exports, and the default network embedded in the
// module (build/net-embedded.ts, written from nets/ by tools/embed-net.ts) loaded at start-up.

export * from "./index";
import { NET_BYTES, NET_LENGTH } from "../build/net-embedded";
import { loadNetwork } from "./nnue";

if (NET_LENGTH > 0) loadNetwork(NET_BYTES, NET_LENGTH);
