// Search limits for a match and the two game clocks: the `go` command for each move, how
// long to wait for the reply, and the time each engine really used (measured by the runner).

/** How each move is limited. Times in milliseconds. */
export type Limits =
  | { kind: "tc"; baseMs: number; incMs: number; movesPerSession?: number }
  | { kind: "movetime"; ms: number }
  | { kind: "nodes"; nodes: number }
  | { kind: "depth"; depth: number };

/** Parses a time control in seconds: "BASE", "BASE+INC" or "MOVES/BASE[+INC]"
 *  ("10+0.1", "40/60", "0.5+0.005"). */
export function parseTimeControl(text: string): Limits & { kind: "tc" } {
  const m = /^(?:(\d+)\/)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$/.exec(text.trim());
  if (!m) throw new Error(`bad time control ${JSON.stringify(text)}: expected BASE+INC in seconds, e.g. 10+0.1 or 40/60+0`);
  const baseMs = Math.round(Number(m[2]) * 1000);
  if (baseMs <= 0) throw new Error(`bad time control ${JSON.stringify(text)}: the base time must be positive`);
  const tc: Limits & { kind: "tc" } = { kind: "tc", baseMs, incMs: Math.round(Number(m[3] ?? 0) * 1000) };
  if (m[1] !== undefined) {
    if (Number(m[1]) < 1) throw new Error(`bad time control ${JSON.stringify(text)}: moves per session must be at least 1`);
    tc.movesPerSession = Number(m[1]);
  }
  return tc;
}

/** The limits as text for logs ("10+0.1", "movetime 20 ms", "nodes 200"). */
export function describeLimits(limits: Limits): string {
  switch (limits.kind) {
    case "tc": {
      const session = limits.movesPerSession ? `${limits.movesPerSession}/` : "";
      return `${session}${limits.baseMs / 1000}${limits.incMs ? "+" + limits.incMs / 1000 : ""}`;
    }
    case "movetime":
      return `movetime ${limits.ms} ms`;
    case "nodes":
      return `nodes ${limits.nodes}`;
    case "depth":
      return `depth ${limits.depth}`;
  }
}

/** The PGN TimeControl tag: "40/60+0.1", "10+0.1", "0.02/move" (fixed time), "-" otherwise. */
export function pgnTimeControl(limits: Limits): string {
  if (limits.kind === "tc") {
    const session = limits.movesPerSession ? `${limits.movesPerSession}/` : "";
    return `${session}${limits.baseMs / 1000}${limits.incMs ? "+" + limits.incMs / 1000 : ""}`;
  }
  if (limits.kind === "movetime") return `${limits.ms / 1000}/move`;
  return "-";
}

/** Index of a side: 0 white, 1 black. */
export type Side = 0 | 1;

/** The two sides' limits, checked to be of one kind (time odds: two time controls). */
export function checkLimitsPair(pair: readonly [Limits, Limits]): readonly [Limits, Limits] {
  const [a, b] = pair;
  if (a.kind !== b.kind) throw new Error(`the two sides' limits must be of one kind, not ${describeLimits(a)} against ${describeLimits(b)}`);
  return pair;
}

/** Both players' clocks for one game. */
export class GameClocks {
  /** Each side's limits, White's first: the same for both unless the game has time odds. */
  readonly limits: readonly [Limits, Limits];
  /** Milliseconds left (tc only; may go slightly negative within the margin). */
  readonly remainingMs: [number, number];
  private readonly movesMade: [number, number] = [0, 0];

  constructor(
    /** The limits of both sides, or of White and Black each (time odds: two time controls). */
    limits: Limits | readonly [Limits, Limits],
    /** Tolerance beyond the allotted time before a move counts as a time loss. */
    readonly marginMs: number,
    /** How long to wait for a reply when the limit is not a time (nodes, depth). */
    readonly replyTimeoutMs: number,
  ) {
    this.limits = Array.isArray(limits) ? checkLimitsPair(limits as readonly [Limits, Limits]) : [limits as Limits, limits as Limits];
    const [w, b] = this.limits;
    this.remainingMs = [w.kind === "tc" ? w.baseMs : 0, b.kind === "tc" ? b.baseMs : 0];
  }

  /** The `go` command for the side to move. */
  goCommand(side: Side): string {
    const l = this.limits[side];
    switch (l.kind) {
      case "tc": {
        const [w, b] = this.remainingMs.map((t) => Math.max(1, Math.round(t)));
        const [wInc, bInc] = this.limits.map((s) => (s.kind === "tc" ? s.incMs : 0));
        let cmd = `go wtime ${w} btime ${b} winc ${wInc} binc ${bInc}`;
        if (l.movesPerSession) cmd += ` movestogo ${l.movesPerSession - (this.movesMade[side] % l.movesPerSession)}`;
        return cmd;
      }
      case "movetime":
        return `go movetime ${l.ms}`;
      case "nodes":
        return `go nodes ${l.nodes}`;
      case "depth":
        return `go depth ${l.depth}`;
    }
  }

  /** True when the limit is a time, so that running over it loses on time. */
  get timed(): boolean {
    return this.limits[0].kind === "tc" || this.limits[0].kind === "movetime";
  }

  /** The time the side may use for this move before losing (the margin included). */
  allowedMs(side: Side): number {
    const l = this.limits[side];
    if (l.kind === "tc") return Math.max(0, this.remainingMs[side]) + this.marginMs;
    if (l.kind === "movetime") return l.ms + this.marginMs;
    return this.replyTimeoutMs;
  }

  /** Charges a move's time to the side; returns false when that loses on time. On success
   *  the increment (and, at the end of a session, the next session's base) is added. */
  charge(side: Side, elapsedMs: number): boolean {
    const l = this.limits[side];
    this.movesMade[side]++;
    if (l.kind === "movetime") return elapsedMs <= l.ms + this.marginMs;
    if (l.kind !== "tc") return true;
    this.remainingMs[side] -= elapsedMs;
    if (this.remainingMs[side] < -this.marginMs) return false;
    this.remainingMs[side] += l.incMs;
    if (l.movesPerSession && this.movesMade[side] % l.movesPerSession === 0) this.remainingMs[side] += l.baseMs;
    return true;
  }
}
