// A small seeded pseudo-random generator (sfc32 seeded through a splitmix32 mix), so that
// every self-play game can be replayed from the run's seed and the game's index.

function splitmix32(x: number): number {
  x = (x + 0x9e3779b9) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

/** sfc32: fast, small state, good enough statistics for move choice and shuffling. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A generator for (seed, stream): different streams of one seed are independent. */
  constructor(seed: number, stream = 0) {
    this.a = splitmix32(seed >>> 0);
    this.b = splitmix32(this.a ^ (stream >>> 0));
    this.c = splitmix32(this.b + Math.floor(stream / 0x100000000));
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** A uniform integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** A uniform number in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** A standard normal deviate (Box-Muller). */
  normal(): number {
    const u = 1 - this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.float());
  }
}
