// A search an Engine has sent to its worker, as the caller's thread sees it: the handlers its
// info goes to, the last complete line it reported (its answer when it is stopped without the
// worker), and the time a ponderhit leaves it when the worker cannot be told.

import type { SearchLimits, SearchInfo, SearchResult, CurrMove } from "./search-types.js";
import type { SearchEvent } from "./protocol.js";
import { checkKeys } from "./validate.js";

export interface SearchHandlers {
  onInfo?: (info: SearchInfo) => void;
  onCurrMove?: (current: CurrMove) => void;
}

const HANDLERS = ["onInfo", "onCurrMove"];

/** Throws a TypeError for an unknown handler or one that is not a function. */
export function checkHandlers(handlers: unknown): SearchHandlers {
  const h = checkKeys("search handler", handlers, HANDLERS) as SearchHandlers;
  for (const name of HANDLERS) {
    const fn = (h as Record<string, unknown>)[name];
    if (fn !== undefined && typeof fn !== "function") throw new TypeError(`${name} must be a function`);
  }
  return h;
}

/** The search running in an Engine's worker. */
export class RunningSearch {
  /** The worker call's id: the id the control words name. */
  id = 0;
  private lastInfo: SearchInfo | undefined;

  constructor(
    /** Where its info goes (none once analyse() has replaced it). */
    public handlers: SearchHandlers | undefined,
    private readonly limits: SearchLimits,
    /** True when white is to move in the searched position. */
    private readonly white: boolean,
    /** The first legal move ("0000": none), the answer when it is stopped before any info. */
    private readonly fallback: string,
    /** Settles the search's promise (when the worker is not asked for the answer). */
    readonly resolve: (result: SearchResult) => void,
  ) {}

  /** Passes an info line or the current move to the handlers, keeping the last complete line. */
  onEvent(event: SearchEvent): void {
    if (event.kind === "info") {
      this.lastInfo = event.info.multipv === 1 && !event.info.bound ? event.info : this.lastInfo;
      this.handlers?.onInfo?.(event.info);
    } else this.handlers?.onCurrMove?.(event.current);
  }

  /** The result of the last complete iteration (the fallback move before any). */
  bestSoFar(): SearchResult {
    const info = this.lastInfo;
    const bestmove = info?.pv[0] ?? this.fallback;
    return {
      bestmove,
      ponder: info?.pv[1],
      score: info?.score ?? { cp: 0 },
      pv: info?.pv ?? (bestmove === "0000" ? [] : [bestmove]),
      depth: info?.depth ?? 0,
      seldepth: info?.seldepth ?? 0,
      nodes: info?.nodes ?? 0,
      nps: info?.nps ?? 0,
      timeMs: info?.timeMs ?? 0,
      wdl: info?.wdl,
    };
  }

  /** After a ponderhit the worker cannot be told of: the time the search may still run, from
   *  the clock of its ponder limits (ms). */
  ponderBudgetMs(): number {
    const l = this.limits;
    const time = this.white ? l.wtime : l.btime;
    const inc = (this.white ? l.winc : l.binc) ?? 0;
    return l.movetime ?? (time === undefined ? 1000 : Math.min(time / 2, time / (l.movestogo || 30) + inc * 0.75));
  }
}
