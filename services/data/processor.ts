// The self-play data processor: plays one chunk of a data run. BullMQ runs this file
// sandboxed, in a child process of the worker (one per core the worker gives), so that a
// chunk's seconds of searching never hold up the worker's event loop and its job locks stay
// renewed. The child keeps its engine from chunk to chunk while the run's engine and table
// size stay the same.

import { pathToFileURL } from "node:url";
import type { SandboxedJob } from "bullmq";
import { Core } from "../../bindings/core.js";
import { playSelfPlayGame } from "../../learn/selfplay.js";
import { codeSignature } from "../code-signature.js";
import { cachedFile } from "../files.js";
import { checkJobCode, endWithWorker, nextTurn, WORKER_ENV, workerRedis } from "../registry.js";
import { CHUNK_RECORD_VERSION, parseChunk } from "./chunk.js";
import type { ChunkResult, GameSummary } from "./chunk.js";

// The worker gone (killed), this child stops too.
endWithWorker();

const workerName = process.env[WORKER_ENV.name] ?? `pid-${process.pid}`;
let engine: { sha: string; hashMb: number; core: Core } | undefined;

/** Plays the chunk's games in order and returns their records. */
export default async function playChunk(job: SandboxedJob): Promise<ChunkResult> {
  const chunk = parseChunk(job.data);
  const code = codeSignature();
  checkJobCode(`chunk ${job.id}`, chunk.code, code);
  const file = await cachedFile(await workerRedis(), "engine", chunk.engine);
  if (engine?.sha !== chunk.engine || engine.hashMb !== chunk.settings.hashMb) {
    engine?.core.dispose();
    engine = undefined;
    // As learn/datagen-worker.ts makes its engines: the same records for the same game.
    engine = { sha: chunk.engine, hashMb: chunk.settings.hashMb, core: await Core.create({ hashMb: chunk.settings.hashMb, wasmUrl: pathToFileURL(file) }) };
  }
  const start = performance.now();
  const games: GameSummary[] = [];
  const records: Uint8Array[] = [];
  for (let i = 0; i < chunk.games; i++) {
    const game = playSelfPlayGame(engine.core, chunk.firstGame + i, chunk.settings);
    records.push(game.records);
    const { index, positions, result, ending, plies, discardedOpenings, nodes } = game;
    games.push({ index, positions, result, ending, plies, discardedOpenings, nodes });
    await job.updateProgress(i + 1);
    await nextTurn();
  }
  return {
    v: CHUNK_RECORD_VERSION,
    code,
    run: chunk.run,
    chunk: chunk.chunk,
    worker: workerName,
    seconds: Number(((performance.now() - start) / 1000).toFixed(3)),
    games,
    records: Buffer.concat(records).toString("base64"),
  };
}
