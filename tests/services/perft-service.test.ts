// Perft submitted to the service (POST /api/runs, kind "perft"), on a real redis-server
// (started here), with real service and worker processes: the count equals the engine's own
// perft; a run cancelled takes its batches off the queue, and resumed it is counted exactly; a
// position that cannot be set up is refused with the field named.
import { expect, it } from "vitest";
import { existsSync } from "node:fs";
import { Core } from "../../bindings/core.js";
import { describeWithOracle } from "../helpers/oracles.js";
import { serviceFixture } from "../helpers/service.js";
import { REDIS_SERVER } from "../../match/redis-server.js";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { queueName } from "../../services/perft/batch.js";
import { perftSignature } from "../../services/perft/signature.js";
import { KEY_PREFIX } from "../../services/registry.js";

const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

describeWithOracle("redis-server", existsSync(REDIS_SERVER), "perft through the service and its workers", () => {
  const f = serviceFixture("perft-service");

  it("counts a perft submitted to the API exactly, also after a cancel and a resume", async () => {
    const core = await Core.create({ build: "classical" });
    core.setPosition(KIWIPETE);
    const expected = core.perft(5);
    core.dispose();
    const { url } = await f.startService();

    const bad = await f.api(url, "POST", "/api/runs", { kind: "perft", depth: 3, fen: "8/8/8/8/8/8/8/8 w - - 0 1" });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/^fen: invalid FEN/);
    expect((await f.api(url, "POST", "/api/runs", { kind: "perft", depth: 99 })).json.error).toMatch(/^depth: /);

    // Submitted, its batches queued, cancelled before any worker runs: a worker started then
    // counts nothing of it; resumed, the run is counted.
    const r = await f.api(url, "POST", "/api/runs", { kind: "perft", id: "p1", fen: KIWIPETE, depth: 5, batches: 200 });
    expect(r.status, r.text).toBe(201);
    for (let i = 0; i < 600 && !((await f.api(url, "GET", "/api/runs/p1")).json.status.batches > 0); i++) {
      await new Promise((res) => setTimeout(res, 50));
    }
    await new Promise((res) => setTimeout(res, 1000)); // its batches are on the queue
    const stopped = await f.api(url, "POST", "/api/runs/p1/cancel");
    expect(stopped.json.state, stopped.text).toBe("stopped");
    f.worker("w", "perft", ["--cores", "1", "--hash", "16"]);
    await new Promise((res) => setTimeout(res, 2000));
    expect((await f.api(url, "GET", "/api/runs/p1")).json.state).toBe("stopped");
    // Its batches left the queue: none waits, none was taken.
    const queue = new Queue(queueName(perftSignature()), { connection: new Redis(f.redis.url, { maxRetriesPerRequest: null }), prefix: KEY_PREFIX });
    expect(await queue.getJobCounts("waiting", "active", "completed")).toEqual({ waiting: 0, active: 0, completed: 0 });
    await queue.close();
    expect((await f.api(url, "POST", "/api/runs/p1/resume")).json.state).toBe("running");
    const run = await f.waitFor(url, "p1", ["done"]);
    expect(BigInt(run.status.nodes)).toBe(expected);
    expect(run.status.counted).toBe(run.status.batches);
    expect(run.status.workers).toBe(1);
  }, 120_000);
});
