// A chess clock for two sides: a time control (start time and increment per move), the side
// whose time runs, and a callback when a flag falls.

import type { Side } from "./fen-facts.js";
import type { ClockLimits } from "./levels.js";

export interface TimeControl {
  readonly id: string;
  readonly name: string;
  /** Start time and increment in milliseconds; none for a game without clocks. */
  readonly initialMs?: number;
  readonly incrementMs?: number;
}

export const TIME_CONTROLS: readonly TimeControl[] = [
  { id: "none", name: "No clock (the engine takes up to 1 s a move)" },
  { id: "1+0", name: "1 min", initialMs: 60_000, incrementMs: 0 },
  { id: "3+2", name: "3 min + 2 s", initialMs: 180_000, incrementMs: 2_000 },
  { id: "5+3", name: "5 min + 3 s", initialMs: 300_000, incrementMs: 3_000 },
  { id: "10+5", name: "10 min + 5 s", initialMs: 600_000, incrementMs: 5_000 },
  { id: "15+10", name: "15 min + 10 s", initialMs: 900_000, incrementMs: 10_000 },
];

export class ChessClock {
  private readonly left: Record<Side, number>;
  private running: Side | undefined;
  private since = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private flagged = false;

  constructor(
    private readonly control: Required<Pick<TimeControl, "initialMs" | "incrementMs">>,
    private readonly onFlag: (side: Side) => void,
    private readonly onTick: () => void,
  ) {
    this.left = { w: control.initialMs, b: control.initialMs };
  }

  /** Starts side's time. */
  start(side: Side): void {
    this.settle();
    this.running = side;
    this.since = performance.now();
    this.timer ??= setInterval(() => this.tick(), 100);
    this.onTick();
  }

  /** side has moved: it gets its increment and the other side's time runs. */
  press(side: Side): void {
    this.settle();
    if (this.flagged) return;
    this.left[side] += this.control.incrementMs;
    this.start(side === "w" ? "b" : "w");
  }

  /** Stops both times (the game is over). */
  stop(): void {
    this.settle();
    this.running = undefined;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.onTick();
  }

  /** Milliseconds left for side. */
  timeLeft(side: Side): number {
    const running = side === this.running ? performance.now() - this.since : 0;
    return Math.max(0, this.left[side] - running);
  }

  /** The side whose time runs. */
  get runningSide(): Side | undefined {
    return this.running;
  }

  /** The clocks as search limits. */
  limits(): ClockLimits {
    return { wtime: this.timeLeft("w"), btime: this.timeLeft("b"), winc: this.control.incrementMs, binc: this.control.incrementMs };
  }

  private settle(): void {
    if (this.running === undefined) return;
    const now = performance.now();
    this.left[this.running] = Math.max(0, this.left[this.running] - (now - this.since));
    this.since = now;
  }

  private tick(): void {
    const side = this.running;
    if (side !== undefined && !this.flagged && this.timeLeft(side) <= 0) {
      this.flagged = true;
      this.stop();
      this.onFlag(side);
      return;
    }
    this.onTick();
  }
}

/** "4:59", "0:09.3" under ten seconds. */
export function formatClock(ms: number): string {
  const total = Math.max(0, ms);
  const minutes = Math.floor(total / 60_000);
  const seconds = (total % 60_000) / 1000;
  if (total < 10_000) return `${minutes}:${seconds.toFixed(1).padStart(4, "0")}`;
  return `${minutes}:${String(Math.floor(seconds)).padStart(2, "0")}`;
}
