// A datagen worker thread: its own engine instance plays the games the main thread asks for
// and sends back their records (see selfplay.ts).

import { parentPort, workerData } from "node:worker_threads";
import { Core } from "../bindings/core.js";
import { playSelfPlayGame, SelfPlaySettings } from "./selfplay.js";

const { settings, wasmUrl } = workerData as { settings: SelfPlaySettings; wasmUrl?: string };
const core = await Core.create({ hashMb: settings.hashMb, wasmUrl: wasmUrl ? new URL(wasmUrl) : undefined });
const port = parentPort!;

port.on("message", (msg: { index: number }) => {
  try {
    const game = playSelfPlayGame(core, msg.index, settings);
    port.postMessage({ game }, [game.records.buffer as ArrayBuffer]);
  } catch (err) {
    port.postMessage({ index: msg.index, error: err instanceof Error ? err.stack ?? err.message : String(err) });
  }
});
port.postMessage({ ready: true });
