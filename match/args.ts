// Parsing of the match CLI's structured values: engine specs (key=value lists), limits,
// SPRT, resign and draw adjudication parameters (shared with the SPSA tuner's CLI).

import { EngineConfig } from "./engine.js";
import { SprtParams } from "./stats.js";
import { Adjudication } from "./game.js";
import { Limits, parseTimeControl } from "./clock.js";

/** Splits "a=1,b=two,c=x\,y" into pairs; a backslash escapes a comma or backslash. */
export function parseKeyValues(text: string, what: string): [string, string][] {
  const items: string[] = [];
  let cur = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\" && i + 1 < text.length) cur += text[++i];
    else if (ch === ",") {
      items.push(cur);
      cur = "";
    } else cur += ch;
  }
  items.push(cur);
  return items
    .filter((s) => s.trim() !== "")
    .map((item) => {
      const eq = item.indexOf("=");
      if (eq <= 0) throw new Error(`${what}: expected key=value, got ${JSON.stringify(item)}`);
      return [item.slice(0, eq).trim(), item.slice(eq + 1)] as [string, string];
    });
}

/** An engine spec: cmd=PATH (required), name=NAME, args="A B C" (split on spaces),
 *  arg=A (one argument, repeatable, keeps spaces), dir=DIR, option.NAME=VALUE (repeatable),
 *  tc=BASE+INC (this engine's own time control, for time odds).
 *  `each` holds keys applied to both engines first (options, args). */
export function parseEngineSpec(text: string, each = ""): EngineConfig {
  const config: EngineConfig = { name: "", command: "", args: [], options: [] };
  for (const [key, value] of [...parseKeyValues(each, "--each"), ...parseKeyValues(text, "--engine")]) {
    if (key === "cmd") config.command = value;
    else if (key === "name") config.name = value;
    else if (key === "args") config.args.push(...value.split(/\s+/).filter((a) => a));
    else if (key === "arg") config.args.push(value);
    else if (key === "dir") config.cwd = value;
    else if (key === "tc") config.limits = parseTimeControl(value);
    else if (key.startsWith("option.") && key.length > 7) {
      const name = key.slice(7);
      const i = config.options.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
      if (i >= 0) config.options.splice(i, 1);
      config.options.push([name, value]);
    } else throw new Error(`--engine: unknown key ${JSON.stringify(key)} (cmd, name, args, arg, dir, tc, option.NAME)`);
  }
  if (!config.command) throw new Error(`--engine ${JSON.stringify(text)}: cmd=... is required`);
  return config;
}

function numbers<K extends string>(text: string, what: string, keys: readonly K[]): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const [key, value] of parseKeyValues(text, what)) {
    if (!(keys as readonly string[]).includes(key)) throw new Error(`${what}: unknown key ${JSON.stringify(key)} (${keys.join(", ")})`);
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n)) throw new Error(`${what}: ${key} must be a number, got ${JSON.stringify(value)}`);
    out[key as K] = n;
  }
  return out;
}

/** "elo0=0,elo1=5,alpha=0.05,beta=0.05" (alpha and beta default to 0.05). */
export function parseSprt(text: string): SprtParams {
  const v = numbers(text, "--sprt", ["elo0", "elo1", "alpha", "beta"] as const);
  if (v.elo0 === undefined || v.elo1 === undefined) throw new Error("--sprt: elo0 and elo1 are required");
  const p: SprtParams = { elo0: v.elo0, elo1: v.elo1, alpha: v.alpha ?? 0.05, beta: v.beta ?? 0.05 };
  if (!(p.elo1 > p.elo0)) throw new Error("--sprt: elo1 must be greater than elo0");
  for (const k of ["alpha", "beta"] as const) {
    if (!(p[k] > 0 && p[k] < 0.5)) throw new Error(`--sprt: ${k} must be between 0 and 0.5`);
  }
  return p;
}

/** "movecount=3,score=600": lose after 3 moves at <= -600 cp (both engines agreeing). */
export function parseResign(text: string): NonNullable<Adjudication["resign"]> {
  const v = numbers(text, "--resign", ["movecount", "score"] as const);
  if (v.movecount === undefined || v.score === undefined) throw new Error("--resign: movecount and score are required");
  if (!(v.movecount >= 1)) throw new Error("--resign: movecount must be at least 1");
  return { moveCount: v.movecount, scoreCp: v.score };
}

/** "movenumber=40,movecount=8,score=10": drawn after move 40 when both engines reported
 *  |score| <= 10 cp for 8 moves. */
export function parseDraw(text: string): NonNullable<Adjudication["draw"]> {
  const v = numbers(text, "--draw", ["movenumber", "movecount", "score"] as const);
  if (v.movecount === undefined || v.score === undefined) throw new Error("--draw: movecount and score are required");
  if (!(v.movecount >= 1)) throw new Error("--draw: movecount must be at least 1");
  return { moveNumber: v.movenumber ?? 0, moveCount: v.movecount, scoreCp: v.score };
}

/** A non-negative integer option value (undefined when the option is absent). */
export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${flag} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return n;
}

/** The per-move limit from --tc, --movetime, --nodes or --depth (at most one; default 10+0.1). */
export function limitsFrom(values: Record<string, string | undefined>): Limits {
  const given = ["tc", "movetime", "nodes", "depth"].filter((k) => values[k] !== undefined);
  if (given.length > 1) throw new Error(`choose one of --${given.join(", --")}`);
  if (values.movetime !== undefined) return { kind: "movetime", ms: positiveInt(values.movetime, "--movetime")! };
  if (values.nodes !== undefined) return { kind: "nodes", nodes: positiveInt(values.nodes, "--nodes")! };
  if (values.depth !== undefined) return { kind: "depth", depth: positiveInt(values.depth, "--depth")! };
  return parseTimeControl(values.tc ?? "10+0.1");
}
