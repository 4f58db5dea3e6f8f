// Build-time configuration: which slider-attack backend and which evaluation this wasm build uses.
// Chosen with asc's integer alias `--use SLIDERS=<n>` (the asconfig targets set it); without
// it the build uses magic bitboards. Every test of SLIDER_BACKEND is a constant, so the
// compiler drops the branches and files of the backends a build does not use.

/** Magic bitboards (assembly/slider-magic.ts): the default build. */
export const SLIDERS_MAGIC = 0;
/** Rotated bitboards, the seed design (assembly/slider-rotated.ts). */
export const SLIDERS_ROTATED = 1;
/** Obstruction difference, the subtraction method (assembly/slider-obstruction.ts). */
export const SLIDERS_OBSTRUCTION = 2;
/** Not a backend to ship: rays walked square by square as an array board does
 *  (assembly/slider-ray-walk.ts); bench:sliders builds it as the baseline. */
export const SLIDERS_RAY_WALK = 3;

// @ts-ignore: SLIDERS is defined by `--use SLIDERS=<n>` when the build asks for a backend
export const SLIDER_BACKEND: i32 = isDefined(SLIDERS) ? SLIDERS : SLIDERS_MAGIC;

// @ts-ignore: NNUE is defined by `--use NNUE=1` in the network build (asconfig target "nnue")
/** The evaluation is the NNUE network (nnue.ts) rather than the hand-crafted one (eval.ts). */
export const USE_NNUE: bool = isDefined(NNUE);
