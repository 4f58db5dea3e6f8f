// Search control: a thread's node count and stop latch, and the poll every 2048 nodes that
// stops the search on the host's stop, the shared header's stop request, a node limit or the
// hard time limit, and turns a ponder search into a timed one at ponderhit. The node search
// (search.ts) counts and tests the latch; the root driver (think.ts) starts and ends it. The
// header is this instance's (shared.ts) with one thread, the shared module's when several
// threads search together (setThread).

import {
  hostPoll, POLL_STOP, POLL_PONDERHIT, sharedStopRequested, sharedRequestStop, sharedPublishNodes, sharedTotalNodes,
  sharedPublishTbHits, sharedTotalTbHits,
} from "./host";
import { restartBudgetClock, hardLimitReached } from "./timeman";
import { limitNodes } from "./limits";
import { stopRequested, requestStop, clearStop, publishNodes, totalNodes, publishTbHits, totalTbHits } from "./shared";
import { tbHits } from "./syzygy-search";
import { setSharedTable } from "./tt";

/** Nodes this thread has searched in the current search. */
export let nodes: u64 = 0;
/** This thread's latch: once set, every node returns at once. */
export let stopped = false;
/** A ponder search (go ponder) that has not had its ponderhit: no time limit applies. */
export let ponderActive = false;
/** Time and node limits never cut depth 1 short: there is always a searched move to play. */
let moveReady = false;
/** This thread's number: 0 for the main thread, which reports and decides the move. */
export let threadIndex = 0;
/** True while this thread searches with others over the shared module's table and header. */
let sharedHeader = false;

/** True while this thread uses the shared module's table and header. */
export function threadShared(): bool {
  return sharedHeader;
}

/** Makes this instance thread `index` of a search, with the shared module's table and
 *  header when `shared` (several threads), or its own (one thread). */
export function setThread(index: i32, shared: bool): void {
  threadIndex = index;
  sharedHeader = shared;
  setSharedTable(shared);
}

/** Starts a search's control: no nodes, no stop, pondering as the limits say. The main
 *  thread also clears the stop request; the host clears the shared one before it starts
 *  the threads. */
export function startControl(pondering: bool): void {
  nodes = 0;
  stopped = false;
  ponderActive = pondering;
  moveReady = false;
  if (!sharedHeader) clearStop();
  publishOwnNodes();
}

/** After the first iteration: the limits may now stop the search. */
export function setMoveReady(): void {
  moveReady = true;
}

/** Stops this thread and asks the others to stop. */
export function stopSearch(): void {
  stopped = true;
  if (sharedHeader) sharedRequestStop();
  else requestStop();
}

/** The main thread's search has ended: every other thread is asked to stop. */
export function endSearch(): void {
  publishOwnNodes();
  if (sharedHeader) sharedRequestStop();
}

/** Publishes this thread's node count and tablebase hits in the header (every poll, and
 *  when the main thread reports). */
export function publishOwnNodes(): void {
  if (sharedHeader) {
    sharedPublishNodes(threadIndex, <i64>nodes);
    sharedPublishTbHits(threadIndex, <i64>tbHits);
  } else {
    publishNodes(threadIndex, nodes);
    publishTbHits(threadIndex, tbHits);
  }
}

/** Nodes of the current search over every thread, as last published. */
export function searchNodes(): u64 {
  return sharedHeader ? <u64>sharedTotalNodes() : totalNodes();
}

/** Tablebase hits of the current search over every thread, as last published (UCI tbhits). */
export function searchTbHits(): u64 {
  return sharedHeader ? <u64>sharedTotalTbHits() : totalTbHits();
}

/** Publishes `count` as this thread's node count in place of `nodes`: the Monte Carlo
 *  search counts its visits (mcts.ts), not the positions its leaves' searches see. */
export function publishNodeCount(count: u64): void {
  if (sharedHeader) sharedPublishNodes(threadIndex, <i64>count);
  else publishNodes(threadIndex, count);
}

/** Polls the host and the limits now (the node search does it every 2048 nodes; the Monte
 *  Carlo search also between its visits, which may search no node at all). */
export function checkLimits(): void {
  publishOwnNodes();
  if (sharedHeader ? sharedStopRequested() != 0 : stopRequested()) {
    stopped = true;
    return;
  }
  // Only the main thread hears the host and keeps the time; it stops the others.
  if (threadIndex != 0) return;
  const cmd = hostPoll();
  if (cmd == POLL_STOP) stopSearch();
  else if (cmd == POLL_PONDERHIT && ponderActive) {
    ponderActive = false;
    restartBudgetClock();
  }
  if (!ponderActive && moveReady && hardLimitReached()) stopSearch();
  // With several threads the node limit counts them all.
  if (sharedHeader && limitNodes != 0 && moveReady && <u64>sharedTotalNodes() >= limitNodes) stopSearch();
}

/** Counts a node; polls the limits every 2048 nodes. */
// @ts-ignore: decorator
@inline export function countNode(): void {
  nodes++;
  if ((nodes & 2047) == 0) checkLimits();
  if (limitNodes != 0 && nodes >= limitNodes && moveReady) stopSearch();
}
