// The engine's slider-attack backends: one wasm build each (asconfig.json targets), the id
// the build reports through sliderBackend(), and where its file lands. Magic is the default.
// The ray-walk baseline is built by bench:sliders only.

export interface SliderBackend {
  name: string;
  /** What sliderBackend() returns in this build (assembly/config.ts). */
  id: number;
  /** The asconfig.json target that builds it. */
  target: string;
  wasm: URL;
}

export const SLIDER_BACKENDS: readonly SliderBackend[] = [
  { name: "magic", id: 0, target: "release", wasm: new URL("../build/wasmchess.wasm", import.meta.url) },
  { name: "rotated", id: 1, target: "rotated", wasm: new URL("../build/wasmchess-rotated.wasm", import.meta.url) },
  { name: "obstruction", id: 2, target: "obstruction", wasm: new URL("../build/wasmchess-obstruction.wasm", import.meta.url) },
];

/** Rays walked square by square (assembly/slider-ray-walk.ts): the benchmark's baseline. */
export const RAY_WALK_BASELINE: SliderBackend = {
  name: "ray walk (baseline)", id: 3, target: "raywalk", wasm: new URL("../build/wasmchess-raywalk.wasm", import.meta.url),
};
