// as-pect configuration: unit tests of assembly/ code live in tests/assembly/*.spec.ts.
export default {
  entries: ["tests/assembly/*.spec.ts"],
  include: [],
  disclude: [/node_modules/],
  async instantiate(memory, createImports, instantiate, binary) {
    // The engine's host imports (assembly/host.ts): a real clock, never a stop, no reports, no
    // tablebase files.
    const env = {
      memory,
      hostNow: () => performance.now(),
      hostPoll: () => 0,
      hostInfo: () => {},
      hostCurrMove: () => {},
      hostTbRead: () => -1,
    };
    return instantiate(binary, createImports({ env }));
  },
  outputBinary: false,
};
