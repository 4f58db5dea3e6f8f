// Search control: a thread's node count and stop latch, and the poll every 2048 nodes that
// stops the search on the host's stop, the shared header's stop request, a node limit or the
// hard time limit, and turns a ponder search into a timed one at ponderhit. The node search
// (search.ts) counts and tests the latch; the root driver (think.ts) starts and ends it.

import { hostPoll, POLL_STOP, POLL_PONDERHIT } from "./host";
import { restartBudgetClock, hardLimitReached } from "./timeman";
import { limitNodes } from "./limits";
import { stopRequested, requestStop, clearStop, publishNodes } from "./shared";

/** Nodes this thread has searched in the current search. */
export let nodes: u64 = 0;
/** This thread's latch: once set, every node returns at once. */
export let stopped = false;
/** A ponder search (go ponder) that has not had its ponderhit: no time limit applies. */
export let ponderActive = false;
/** Time and node limits never cut depth 1 short: there is always a searched move to play. */
let moveReady = false;

/** Starts a search's control: no nodes, no stop, pondering as the limits say. */
export function startControl(pondering: bool): void {
  nodes = 0;
  stopped = false;
  ponderActive = pondering;
  moveReady = false;
  clearStop();
  publishNodes(0, 0);
}

/** After the first iteration: the limits may now stop the search. */
export function setMoveReady(): void {
  moveReady = true;
}

/** Stops this thread and asks the others to stop. */
export function stopSearch(): void {
  stopped = true;
  requestStop();
}

/** Publishes this thread's node count in the shared header (every poll, and when the main
 *  thread reports). */
export function publishOwnNodes(): void {
  publishNodes(0, nodes);
}

function checkLimits(): void {
  publishOwnNodes();
  const cmd = hostPoll();
  if (cmd == POLL_STOP || stopRequested()) stopped = true;
  else if (cmd == POLL_PONDERHIT && ponderActive) {
    ponderActive = false;
    restartBudgetClock();
  }
  if (!ponderActive && moveReady && hardLimitReached()) stopSearch();
}

/** Counts a node; polls the limits every 2048 nodes. */
// @ts-ignore: decorator
@inline export function countNode(): void {
  nodes++;
  if ((nodes & 2047) == 0) checkLimits();
  if (limitNodes != 0 && nodes >= limitNodes && moveReady) stopSearch();
}
