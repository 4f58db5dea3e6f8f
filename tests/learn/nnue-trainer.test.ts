// The NNUE trainer: the loss falls on a committed fixture, checkpoints resume exactly, and the
// quantised network file gives the engine's network build the trainer's evaluation.
import { describe, it, expect, beforeAll } from "vitest";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Core } from "../../bindings/core.js";
import { NnueTrainer, TrainingData, TrainSettings } from "../../learn/nnue-trainer.js";
import { quantise, dequantise, writeNetwork } from "../../learn/net-file.js";
import { RecordCodec } from "../../learn/records.js";
import { Rng } from "../../learn/rng.js";

const FIXTURE = fileURLToPath(new URL("../data/selfplay-16k.bin", import.meta.url));
const NNUE_WASM = new URL("../../build/wasmchess-nnue.wasm", import.meta.url);

const settings: TrainSettings = {
  hidden: 32, kingBuckets: 1, buckets: 2, screlu: true, wdl: 0.5, batchSize: 1024, epochs: 6, lr: 0.005, lrStep: 100, lrGamma: 0.1,
  weightDecay: 0.01, evalScale: 0, seed: 5, mirror: false, psqt: false,
};
let data: TrainingData;
let evalScale: number;

beforeAll(() => {
  data = TrainingData.load([FIXTURE], 0.1, 3000, 1);
  evalScale = data.fitEvalScale();
});

/** Loads a network file into an engine of the network build; returns the engine. */
async function engineWith(net: Uint8Array): Promise<Core> {
  const core = await Core.create({ hashMb: 1, wasmUrl: NNUE_WASM });
  const w = core.exports;
  const ptr = w.networkBuffer(net.length);
  new Uint8Array(w.memory.buffer, ptr, net.length).set(net);
  if (!w.networkLoad(net.length)) throw new Error(w.networkError());
  return core;
}

describe("NNUE trainer", () => {
  it("fits a sensible logistic scale and lowers the training and validation loss", async () => {
    expect(evalScale).toBeGreaterThan(60);
    expect(evalScale).toBeLessThan(600);
    const t = await NnueTrainer.create(settings);
    const before = t.loss(data.train, evalScale);
    const validationBefore = t.loss(data.validation, evalScale);
    for (let e = 0; e < settings.epochs; e++) t.trainEpoch(data, evalScale, new Rng(1, e));
    const after = t.loss(data.train, evalScale);
    const validationAfter = t.loss(data.validation, evalScale);
    expect(after).toBeLessThan(before * 0.7);
    expect(validationAfter).toBeLessThan(validationBefore * 0.8);
  });

  it("holds out the same chunks of a file whichever files it is read with", () => {
    const twice = TrainingData.load([FIXTURE, FIXTURE], 0.1, 3000, 1);
    expect(data.validationCount).toBeGreaterThan(0);
    expect(twice.validationCount).toBe(2 * data.validationCount);
    expect(Buffer.from(twice.validation.subarray(data.validation.length)).equals(Buffer.from(data.validation))).toBe(true);
  });

  it("resumes from a checkpoint to the same parameters as an uninterrupted run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "train-"));
    const a = await NnueTrainer.create(settings);
    for (let e = 0; e < 2; e++) a.trainEpoch(data, evalScale, new Rng(1, e));
    const b = await NnueTrainer.create(settings);
    b.trainEpoch(data, evalScale, new Rng(1, 0));
    b.saveCheckpoint(join(dir, "c.bin"), {});
    const c = await NnueTrainer.create({ ...settings, seed: 99 });
    c.loadCheckpoint(join(dir, "c.bin"));
    c.trainEpoch(data, evalScale, new Rng(1, 1));
    expect(Array.from(c.params())).toEqual(Array.from(a.params()));
    expect(c.epoch).toBe(2);
  });

  it("--qat trains the quantised network itself: on the file's grid, the same loss as the file, resumable", async () => {
    const q = { ...settings, psqt: true, kingBuckets: 2, qat: true };
    const t = await NnueTrainer.create(q);
    const before = t.loss(data.validation, evalScale);
    for (let e = 0; e < 4; e++) t.trainEpoch(data, evalScale, new Rng(4, e));
    const after = t.loss(data.validation, evalScale);
    expect(after).toBeLessThan(before * 0.95);
    // Every parameter the network evaluates with is what the file stores.
    const file = quantise(t.network());
    const plus = (v: number) => v + 0; // the kernel rounds small negative weights to -0
    expect(Array.from(dequantise(file).params, plus)).toEqual(Array.from(t.params(), plus));
    const plain = await NnueTrainer.create({ ...q, qat: false });
    plain.setNetwork(dequantise(file));
    expect(plain.loss(data.validation, evalScale)).toBe(after);
    const again = await NnueTrainer.create(q); // --init under --qat: the file's network itself
    again.setNetwork(dequantise(file));
    expect(again.loss(data.validation, evalScale)).toBe(after);
    // The checkpoint keeps the latent weights: a resumed run ends where an uninterrupted one does.
    const dir = mkdtempSync(join(tmpdir(), "qat-"));
    const b = await NnueTrainer.create(q);
    b.trainEpoch(data, evalScale, new Rng(4, 0));
    b.saveCheckpoint(join(dir, "c.bin"), {});
    const c = await NnueTrainer.create({ ...q, seed: 99 });
    c.loadCheckpoint(join(dir, "c.bin"));
    for (let e = 1; e < 4; e++) c.trainEpoch(data, evalScale, new Rng(4, e));
    expect(Array.from(c.params())).toEqual(Array.from(t.params()));
  });

  it.each([
    [false, 1],
    [true, 1],
    [true, 2],
    [true, 4],
  ])("writes a network file that the engine evaluates as the trainer does (PSQT: %s, king buckets: %i)", async (psqt, kingBuckets) => {
    const t = await NnueTrainer.create({ ...settings, psqt, kingBuckets });
    for (let e = 0; e < 2; e++) t.trainEpoch(data, evalScale, new Rng(2, e));
    const net = quantise(t.network());
    const file = writeNetwork(net, mkdtempSync(join(tmpdir(), "net-")));
    expect(file).toMatch(/wcnn-[0-9a-f]{8}\.nnue$/);
    expect(Buffer.from(readFileSync(file)).equals(Buffer.from(net))).toBe(true);
    const core = await engineWith(net);
    expect(core.exports.networkHidden()).toBe(32);
    const codec = new RecordCodec(core);
    let worst = 0;
    let sum = 0;
    const n = 300;
    for (let i = 0; i < n; i++) {
      codec.unpack(data.validation, i, `validation ${i}`);
      const engine = core.evaluate().score;
      const float = t.evaluate(data.validation, i);
      worst = Math.max(worst, Math.abs(engine - float) / Math.max(1, Math.abs(float) / 100));
      sum += Math.abs(engine - float);
    }
    // Quantisation (weights rounded to 1/255 and 1/64) costs a few centipawns; a wrong feature
    // order or perspective would cost hundreds.
    expect(sum / n).toBeLessThan(4);
    expect(worst).toBeLessThan(20);
  });

  it("--mirror teaches the network the left-right symmetry of chess without castling", async () => {
    /** Mean |eval(p) - eval(mirror of p)| of the network over validation positions. */
    async function asymmetry(mirror: boolean): Promise<number> {
      const t = await NnueTrainer.create({ ...settings, mirror });
      for (let e = 0; e < settings.epochs; e++) t.trainEpoch(data, evalScale, new Rng(3, e));
      const core = await engineWith(quantise(t.network()));
      const codec = new RecordCodec(core);
      let sum = 0;
      const n = 200;
      for (let i = 0; i < n; i++) {
        codec.unpack(data.validation, i, `validation ${i}`);
        const [board, side, , ep, ...rest] = core.fen().split(" ");
        const flip = (s: string) => s.replace(/[a-h]/g, (f) => String.fromCharCode(201 - f.charCodeAt(0))); // a <-> h
        const mirrored = [board.split("/").map((rank) => [...rank].reverse().join("")).join("/"), side, "-", ep === "-" ? ep : flip(ep), ...rest];
        const score = core.evaluate().score;
        core.setPosition(mirrored.join(" "));
        sum += Math.abs(core.evaluate().score - score);
      }
      return sum / n;
    }
    const plain = await asymmetry(false);
    const mirrored = await asymmetry(true);
    expect(mirrored).toBeLessThan(plain * 0.7);
  });

  it("starts from a network file (--init), widened if narrower: the committed networks read back to the same bytes, and train on", async () => {
    const dir = new URL("../../nets/", import.meta.url);
    const names = readdirSync(dir).filter((n) => n.endsWith(".nnue"));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const bytes = new Uint8Array(readFileSync(new URL(name, dir)));
      expect(Buffer.from(quantise(dequantise(bytes))).equals(Buffer.from(bytes))).toBe(true);
    }
    // A trained network, written and read back into a fresh trainer, evaluates as before and
    // goes on learning from there rather than from random weights.
    const first = await NnueTrainer.create(settings);
    for (let e = 0; e < 3; e++) first.trainEpoch(data, evalScale, new Rng(1, e));
    const file = quantise(first.network());
    const second = await NnueTrainer.create({ ...settings, seed: 99 });
    const fresh = second.loss(data.validation, evalScale);
    second.setNetwork(dequantise(file));
    const started = second.loss(data.validation, evalScale);
    expect(started).toBeLessThan(fresh * 0.9);
    expect(Math.abs(started - first.loss(data.validation, evalScale))).toBeLessThan(0.002);
    second.trainEpoch(data, evalScale, new Rng(1, 7));
    expect(second.loss(data.train, evalScale)).toBeLessThan(first.loss(data.train, evalScale));
    // A wider trainer widens it: the new neurons start silent, so the loss is the narrow
    // network's. A narrower one, or another output, is refused by name.
    const wide = await NnueTrainer.create({ ...settings, hidden: 48, seed: 3 });
    wide.setNetwork(dequantise(file));
    expect(wide.loss(data.validation, evalScale)).toBeCloseTo(started, 6);
    wide.trainEpoch(data, evalScale, new Rng(1, 7));
    expect(wide.loss(data.train, evalScale)).toBeLessThan(first.loss(data.train, evalScale));
    const narrow = await NnueTrainer.create({ ...settings, hidden: 16 });
    expect(() => narrow.setNetwork(dequantise(file))).toThrow(/768 -> 32.*settings ask for 768 -> 16/);
    const buckets = await NnueTrainer.create({ ...settings, hidden: 48, buckets: 1 });
    expect(() => buckets.setNetwork(dequantise(file))).toThrow(/2 bucket.*settings ask for 768 -> 48, SCReLU, 1/);
    // Twice the output buckets start each from the one whose piece counts it splits: the
    // same loss (the widened buckets' loss differs once any bucket is copied wrongly).
    const split = await NnueTrainer.create({ ...settings, buckets: 4, seed: 5 });
    split.setNetwork(dequantise(file));
    expect(split.loss(data.validation, evalScale)).toBeCloseTo(started, 6);
    const three = quantise((await NnueTrainer.create({ ...settings, buckets: 3 })).network());
    expect(() => split.setNetwork(dequantise(three))).toThrow(/3 bucket/);
    // Two king buckets start both from the network's weights: the same loss, then apart.
    const kings = await NnueTrainer.create({ ...settings, kingBuckets: 2, seed: 4 });
    kings.setNetwork(dequantise(file));
    expect(kings.loss(data.validation, evalScale)).toBeCloseTo(started, 6);
    const kingsFile = quantise(kings.network());
    expect(kingsFile.length - 64).toBe(2 * (file.length - 64) - (32 * 2 + 2 * 2 * 32 * 2 + 2 * 4));
    const single = await NnueTrainer.create(settings);
    expect(() => single.setNetwork(dequantise(kingsFile))).toThrow(/1536 -> 32.*settings ask for 768 -> 32/);
    // Four king buckets start each from the bucket of its half of two trained apart: the same
    // loss (it differs once a king square's bucket is mapped to the other half).
    kings.trainEpoch(data, evalScale, new Rng(6, 0));
    const halves = dequantise(quantise(kings.network()));
    const two = await NnueTrainer.create({ ...settings, kingBuckets: 2, seed: 7 });
    two.setNetwork(halves);
    const quarters = await NnueTrainer.create({ ...settings, kingBuckets: 4, seed: 8 });
    quarters.setNetwork(halves);
    expect(two.loss(data.validation, evalScale)).not.toBeCloseTo(started, 4);
    expect(quarters.loss(data.validation, evalScale)).toBeCloseTo(two.loss(data.validation, evalScale), 6);
    expect(quantise(quarters.network()).length).toBe(64 + 4 * 768 * 32 * 2 + 32 * 2 + 2 * 2 * 32 * 2 + 2 * 4);
    const bad = file.slice();
    bad[500] ^= 1;
    expect(() => dequantise(bad)).toThrow(/hash mismatch/);
  });

  it("rejects a corrupt network file with a clear error and keeps the network in use", async () => {
    const t = await NnueTrainer.create(settings);
    const net = quantise(t.network());
    const core = await engineWith(net);
    const w = core.exports;
    const bad = net.slice();
    bad[1000] ^= 0x40;
    new Uint8Array(w.memory.buffer, w.networkBuffer(bad.length), bad.length).set(bad);
    expect(w.networkLoad(bad.length)).toBe(false);
    expect(w.networkError()).toMatch(/hash mismatch/);
    expect(w.networkHash()).toBe(new DataView(net.buffer).getUint32(36, true));
  });
});
