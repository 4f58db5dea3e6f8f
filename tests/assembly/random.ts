// The specs' random numbers: a seeded xorshift generator, so that every run of a spec plays
// the same playouts and draws the same values.

export class Xorshift {
  constructor(private state: u64) {}

  /** A whole number from 0 to n - 1. */
  next(n: i32): i32 {
    let s = this.state;
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    this.state = s;
    return <i32>(s % <u64>n);
  }
}
