// as-pect configuration: unit tests of assembly/ code live in tests/assembly/*.spec.ts.
export default {
  entries: ["tests/assembly/**/*.spec.ts"],
  include: [],
  disclude: [/node_modules/],
  async instantiate(memory, createImports, instantiate, binary) {
    return instantiate(binary, createImports({ env: { memory } }));
  },
  outputBinary: false,
};
