// TD-Leaf(lambda) (placeholder until written).
export async function runTdLeaf(_values: unknown, _command: string): Promise<void> {
  throw new Error("tdleaf: not written yet");
}
