// The example page's script: starts the engine (its wasm runs in a Web Worker), runs perft
// and a 2-second search on the typed FEN, streams info lines, and stops on request.

import { Engine, START_FEN } from "wasmchess";

const $ = (id) => document.getElementById(id);
const form = $("controls");
const fenField = form.elements.namedItem("fen");
const depthField = form.elements.namedItem("depth");
const buttons = { perft: $("perft"), search: $("search"), stop: $("stop") };

let engine;
let stopClickedAt = 0;

fenField.value = START_FEN;

function setBusy(busy, searching = false) {
  buttons.perft.disabled = busy;
  buttons.search.disabled = busy;
  buttons.stop.disabled = !searching;
  $("status").value = busy ? (searching ? "searching" : "busy") : "ready";
}

function formatInfo(info) {
  const score = "mate" in info.score ? `mate ${info.score.mate}` : `cp ${info.score.cp}`;
  const bound = info.bound ? ` ${info.bound}` : "";
  return `info depth ${info.depth} seldepth ${info.seldepth} score ${score}${bound} nodes ${info.nodes} nps ${info.nps} time ${info.timeMs} pv ${info.pv.join(" ")}`;
}

/** Runs fn with the buttons disabled; shows its error, if any. */
async function run(fn, searching = false) {
  $("error").textContent = "";
  setBusy(true, searching);
  try {
    await fn();
  } catch (err) {
    $("error").textContent = err instanceof Error ? err.message : String(err);
  } finally {
    setBusy(false);
  }
}

buttons.perft.addEventListener("click", () =>
  run(async () => {
    $("perft-result").value = "";
    delete $("perft-result").dataset.nodes;
    await engine.setPosition(fenField.value.trim());
    const depth = Number(depthField.value);
    const start = performance.now();
    const nodes = await engine.perft(depth);
    const ms = performance.now() - start;
    $("perft-result").value = `depth ${depth}: ${nodes} nodes in ${ms.toFixed(0)} ms`;
    $("perft-result").dataset.nodes = String(nodes);
  }),
);

buttons.search.addEventListener("click", () =>
  run(async () => {
    $("bestmove").value = "";
    $("search-summary").value = "";
    delete $("bestmove").dataset.uci;
    delete $("search-summary").dataset.stopMs;
    $("info").textContent = "";
    stopClickedAt = 0;
    await engine.setPosition(fenField.value.trim());
    const result = await engine.search({ movetime: 2000 }, {
      onInfo: (info) => {
        $("info").textContent += formatInfo(info) + "\n";
        $("info").scrollTop = $("info").scrollHeight;
      },
    });
    const stopMs = stopClickedAt ? performance.now() - stopClickedAt : undefined;
    const san = result.bestmove === "0000" ? "" : ` (${await engine.toSan(result.bestmove)})`;
    $("bestmove").value = result.bestmove + san;
    $("bestmove").dataset.uci = result.bestmove;
    $("search-summary").value = `depth ${result.depth}, ${result.nodes} nodes, ${result.timeMs} ms` +
      (stopMs === undefined ? "" : `, stopped in ${stopMs.toFixed(1)} ms`);
    if (stopMs !== undefined) $("search-summary").dataset.stopMs = stopMs.toFixed(1);
  }, true),
);

buttons.stop.addEventListener("click", () => {
  stopClickedAt = performance.now();
  engine.stop();
});

engine = await Engine.create({ hashMb: 16 });
$("stop-mode").value = engine.hasSharedStop ? "shared memory (in place)" : "worker restart (no SharedArrayBuffer)";
document.body.dataset.sharedStop = String(engine.hasSharedStop);
setBusy(false);
