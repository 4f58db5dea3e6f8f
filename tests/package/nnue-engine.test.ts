// The network build through the package: which build runs and says so, loading a network
// file (Engine.loadNetwork, UCI EvalFile) with clear errors for bad files, and the network
// surviving a worker restart.
import { describe, it, expect, beforeAll, afterEach } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Engine } from "../../bindings/engine.js";
import { Core } from "../../bindings/core.js";
import { simdSupported } from "../../bindings/wasm.js";
import { NnueTrainer } from "../../learn/nnue-trainer.js";
import { quantise } from "../../learn/net-file.js";
import { UciProcess } from "../../match/uci-process.js";

const CLI = fileURLToPath(new URL("../../build/cli.js", import.meta.url));
/** The network that package.json's build:nnue embeds (named there only). */
const EMBEDDED_NET = (() => {
  const script: string = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).scripts["build:nnue"];
  const m = /nets\/(wcnn-[0-9a-f]{8}\.nnue)/.exec(script);
  if (!m) throw new Error(`build:nnue names no network: ${script}`);
  return m[1];
})();
let net: Uint8Array;
let netName: string;
let netFile: string;

beforeAll(async () => {
  // A random network of hidden size 32: enough to tell its evaluation from the classical one.
  const t = await NnueTrainer.create({
    hidden: 32, kingBuckets: 1, buckets: 1, screlu: true, wdl: 0.5, batchSize: 1, epochs: 1, lr: 0, lrStep: 1, lrGamma: 1, weightDecay: 0, evalScale: 150, seed: 12, mirror: false, psqt: false,
  });
  net = quantise(t.network());
  netName = `wcnn-${new DataView(net.buffer).getUint32(36, true).toString(16).padStart(8, "0")}.nnue`;
  netFile = join(mkdtempSync(join(tmpdir(), "net-")), netName);
  writeFileSync(netFile, net);
});

let engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.map((e) => e.dispose()));
  engines = [];
});
async function engine(options: Parameters<typeof Engine.create>[0] = {}): Promise<Engine> {
  const e = await Engine.create(options);
  engines.push(e);
  return e;
}

describe("builds", () => {
  it("runs the network build by default where the host has SIMD, the classical one on request", async () => {
    expect(simdSupported()).toBe(true); // Node 20
    // The network build embeds the network named in package.json's build:nnue.
    expect(await (await engine()).info()).toEqual({ build: "nnue", evaluation: "nnue", network: { name: EMBEDDED_NET, inputs: 3072, hidden: 128 } });
    expect(await (await engine({ build: "classical" })).info()).toEqual({ build: "classical", evaluation: "classical" });
    await expect(Engine.create({ build: "fast" as never })).rejects.toThrow(/build must be "nnue" or "classical"/);
  });

  it("loads every committed network, each named after its content hash", async () => {
    const dir = new URL("../../nets/", import.meta.url);
    const names = readdirSync(dir).filter((n) => n.endsWith(".nnue"));
    expect(names).toContain("wcnn-5ce2b8cc.nnue");
    const core = await Core.create({ build: "nnue" });
    for (const name of names) {
      core.loadNetwork(readFileSync(new URL(name, dir)));
      expect(core.info().network?.name).toBe(name);
    }
  });

  it("searches the same tree with the scalar kernels as with SIMD, and each kernel agrees", async () => {
    const w = (await Core.create({ build: "nnue" })).exports;
    const simd = w.bench(6);
    w.networkSimd(false);
    expect(w.bench(6)).toBe(simd);
    w.networkSimd(true);
    // Refresh, update (a capture and castling) and output: the same checksum either way.
    for (const move of ["c4f7", "e1g1"]) {
      expect(w.setFen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")).toBe(0);
      expect(w.playUciMove(move)).toBe(true);
      for (let kernel = 0; kernel < 3; kernel++) {
        const sum = w.networkKernel(kernel, true, 3);
        expect(sum).not.toBe(-1);
        expect(w.networkKernel(kernel, false, 3)).toBe(sum);
      }
    }
  });

  it("refuses a network in the classical build", async () => {
    const core = await Core.create({ build: "classical" });
    expect(() => core.loadNetwork(net)).toThrow(/classical build/);
  });
});

describe("Engine.loadNetwork", () => {
  it("switches the evaluation to the network and names it", async () => {
    const e = await engine();
    // Not the start position: there the embedded network and this one happen to agree.
    await e.setPosition("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    const before = await e.evaluate();
    await e.loadNetwork(net);
    expect(await e.info()).toEqual({ build: "nnue", evaluation: "nnue", network: { name: netName, inputs: 768, hidden: 32 } });
    const after = await e.evaluate();
    expect(after.network).toBe(netName);
    expect(after.terms).toEqual([]);
    expect(after.score).not.toBe(before.score);
    const core = await Core.create({ build: "nnue" });
    core.loadNetwork(net);
    core.setPosition(await e.fen());
    expect(core.evaluate().score).toBe(after.score);
    // The report's phase is the position's, as in the classical build, not a stale one.
    const ending = "8/5k2/8/3r4/8/2N5/5K2/8 w - - 0 1";
    await e.setPosition(ending);
    const classical = await Core.create({ build: "classical" });
    classical.setPosition(ending);
    const report = await e.evaluate();
    expect(report.phase).toBe(classical.evaluate().phase);
    expect(report.scale).toBe(64);
  });

  it("rejects corrupt and foreign files by name and keeps the network in use", async () => {
    const e = await engine();
    await e.loadNetwork(net);
    const corrupt = net.slice();
    corrupt[5000] ^= 1;
    await expect(e.loadNetwork(corrupt)).rejects.toThrow(/not a valid network: content hash mismatch/);
    await expect(e.loadNetwork(new TextEncoder().encode("hello"))).rejects.toThrow(/shorter than the 64-byte header/);
    await expect(e.loadNetwork(net.subarray(0, net.length - 4))).rejects.toThrow(/this header needs/);
    await expect(e.loadNetwork("x" as never)).rejects.toThrow(TypeError);
    expect((await e.info()).network?.name).toBe(netName);
    expect((await e.search({ depth: 4 })).bestmove).toMatch(/^[a-h][1-8][a-h][1-8]/);
  });

  it("keeps the network when stop restarts the worker (no shared memory)", async () => {
    const e = await engine({ sharedMemory: false });
    await e.loadNetwork(net);
    const search = e.search({ infinite: true });
    await new Promise((r) => setTimeout(r, 100));
    await e.stop();
    await search;
    expect((await e.info()).network?.name).toBe(netName);
  });
});

describe("UCI", () => {
  it("says which evaluation runs, loads EvalFile, and reports a bad file while keeping the network", async () => {
    const uci = new UciProcess(process.execPath, [CLI]);
    const out: string[] = [];
    uci.listeners.push((l) => out.push(l));
    try {
      uci.send("uci");
      await uci.waitFor((l) => l === "uciok");
      expect(out.some((l) => /^option name EvalFile type string default /.test(l))).toBe(true);
      // The embedded network has four king buckets (3072 inputs); the test's, one.
      uci.send(`setoption name EvalFile value ${fileURLToPath(new URL(`../../nets/${EMBEDDED_NET}`, import.meta.url))}`);
      expect(await uci.waitFor((l) => l.includes("EvalFile") && l.includes("loaded"))).toContain(`loaded: ${EMBEDDED_NET} (3072x128)`);
      uci.send(`setoption name EvalFile value ${netFile}`);
      expect(await uci.waitFor((l) => l.includes("EvalFile") && l.includes(`loaded: ${netName}`))).toContain(`loaded: ${netName} (768x32)`);
      uci.send(`setoption name EvalFile value ${CLI}`);
      const err = await uci.waitFor((l) => l.startsWith("info string error"));
      expect(err).toMatch(/EvalFile .*not a valid network: not a network file .*the network in use stays/);
      uci.send("setoption name EvalFile value /no/such/file.nnue");
      expect(await uci.waitFor((l) => l.includes("cannot read"))).toMatch(/info string error: EvalFile: cannot read \/no\/such\/file.nnue/);
      uci.send("eval");
      expect(await uci.waitFor((l) => l.startsWith("NNUE evaluation"))).toContain(netName);
      uci.send("uci");
      await uci.waitFor((l) => l.startsWith("id name") && out.filter((x) => x.startsWith("id name")).length === 2);
      expect(out.filter((l) => l.startsWith("id name"))[1]).toMatch(/NNUE$/);
    } finally {
      uci.kill();
    }
  });

  it("runs the classical build with WASMCHESS_BUILD=classical, without EvalFile, and eval shows its terms", async () => {
    process.env.WASMCHESS_BUILD = "classical"; // the child inherits the environment at spawn
    const uci = new UciProcess(process.execPath, [CLI]);
    delete process.env.WASMCHESS_BUILD;
    const out: string[] = [];
    uci.listeners.push((l) => out.push(l));
    try {
      uci.send("uci");
      await uci.waitFor((l) => l === "uciok");
      expect(out.find((l) => l.startsWith("id name"))).toMatch(/classical$/);
      expect(out.some((l) => l.includes("EvalFile"))).toBe(false);
      uci.send("position startpos");
      uci.send("eval");
      expect(await uci.waitFor((l) => l.startsWith("Final evaluation:"))).toMatch(/^Final evaluation: -?\d+ cp \(side to move\)$/);
      expect(out.some((l) => l.includes("King safety"))).toBe(true);
    } finally {
      uci.kill();
    }
  });
});
