// The service's dashboard: the workers online and every run with its progress, from the same
// API a script uses. Live: the service sends its state every second (server-sent events on
// /api/events). Every text the page shows comes from the API and goes in as text (never as
// HTML). The token is asked once and kept in this tab (sessionStorage), or given in the
// address as #token=...

const TOKEN_KEY = "wasmchess-service-token";
let token = "";
let events;
/** Per run id: its card's parts and its charts. */
const cards = new Map();
/** Positions per second of each data run, as seen by this page: [seconds, rate][]. */
const rates = new Map();

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

function api(method, path) {
  return fetch(path, { method, headers: { authorization: `Bearer ${token}` } });
}

const fmt = (n, digits = 0) => (typeof n === "number" && Number.isFinite(n) ? n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }) : "–");
/** An Elo estimate; JSON carries an unbounded one (a score of 0 or 1) as null. */
const elo = (e) => {
  if (!e) return "–";
  if (typeof e.elo !== "number") return e.score > 0.5 ? "+∞" : "−∞";
  return `${e.elo >= 0 ? "+" : ""}${fmt(e.elo, 1)} ± ${typeof e.margin === "number" ? fmt(e.margin, 1) : "∞"}`;
};
const ago = (ms) => (ms < 90_000 ? `${Math.round(ms / 1000)} s` : ms < 5_400_000 ? `${Math.round(ms / 60_000)} min` : `${fmt(ms / 3_600_000, 1)} h`);

function renderWorkers(workers, now) {
  const body = document.querySelector("#workers tbody");
  body.replaceChildren(...workers.map((w) => el("tr", { "data-worker": w.name },
    el("td", {}, w.name), el("td", {}, w.host), el("td", {}, w.kinds.join(", ")), el("td", {}, w.cores),
    el("td", { title: `${w.code}\nperft ${w.signature}` }, w.version),
    el("td", {}, Object.entries(w.done).map(([k, n]) => `${k} ${n}`).join(", ") || "–"),
    el("td", {}, w.busy || "waiting"), el("td", {}, ago(now - w.started)))));
  document.querySelector("#worker-count").textContent = `${workers.length} online, ${workers.reduce((a, w) => a + w.cores, 0)} cores`;
}

function renderFlags(flags) {
  const entries = Object.entries(flags.flagged);
  document.querySelector("#flags").textContent = entries.length
    ? `Results refused: ${entries.map(([w, n]) => `${w} ${n}`).join(", ")} (last: ${flags.recent[0]?.reason ?? ""})`
    : "";
}

async function download(path, name) {
  const res = await api("GET", path);
  if (!res.ok) return;
  const url = URL.createObjectURL(await res.blob());
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A uPlot chart of one series over x (and flat lines, such as an SPRT's bounds). */
function chart(parent, xLabel, label, color, lines = []) {
  if (typeof uPlot !== "function") return undefined;
  return new uPlot({
    width: Math.min(parent.clientWidth || 600, 900), height: 160,
    scales: { x: { time: false } },
    series: [{ label: xLabel }, { label, stroke: color, width: 2 }, ...lines.map((l) => ({ label: l, stroke: "#999", dash: [4, 4], points: { show: false } }))],
    // The y axis as wide as its longest label (an LLR far past its bounds reads 27,181).
    axes: [{}, { size: (u, values) => Math.max(50, 14 + 8 * Math.max(0, ...(values ?? []).map((v) => String(v).length))) }],
  }, [[], [], ...lines.map(() => [])], parent);
}

/** The card of a run, made once and updated in place (its charts keep their state). */
function card(run) {
  let c = cards.get(run.id);
  if (c) return c;
  const title = el("span", { class: "run-id" });
  const kind = el("span", { class: "muted" });
  const state = el("span", { class: "state" });
  const actions = el("span", { class: "actions" });
  const progress = el("progress", { max: "1", value: "0" });
  const facts = el("div", { class: "facts" });
  const error = el("div", { class: "error" });
  const plot = el("div", { class: "chart" });
  const root = el("div", { class: "run", "data-run": run.id }, el("div", { class: "run-head" }, title, kind, state, actions), progress, facts, error, plot);
  c = { root, title, kind, state, actions, progress, facts, error, plot, chart: undefined, actionsFor: "" };
  cards.set(run.id, c);
  return c;
}

function fact(name, value) {
  return el("span", {}, `${name} `, el("b", {}, value));
}

function renderRun(run, now) {
  const c = card(run);
  const s = run.status ?? {};
  c.title.textContent = run.id;
  c.state.textContent = run.state;
  c.state.className = `state ${run.state}`;
  c.error.textContent = run.error ?? "";
  if (run.kind === "data") {
    c.kind.textContent = `self-play data, ${fmt(run.spec.settings.nodes)} nodes per move, seed ${run.spec.settings.seed}`;
    c.progress.value = s.target ? Math.min(1, s.positions / s.target) : 0;
    const r = s.results ?? { white: 0, draw: 0, black: 0 };
    c.facts.replaceChildren(
      fact("positions", `${fmt(s.positions)} / ${fmt(run.spec.positions)}`), fact("games", fmt(s.games)),
      fact("positions/s", fmt(s.positionsPerSecond, 1)), fact("white–draw–black", `${r.white}–${r.draw}–${r.black}`),
      fact("time", ago((s.seconds ?? 0) * 1000)));
    if (run.state === "running" && typeof s.positionsPerSecond === "number") {
      const series = rates.get(run.id) ?? [];
      series.push([now / 1000, s.positionsPerSecond]);
      if (series.length > 600) series.shift();
      rates.set(run.id, series);
    }
    const series = rates.get(run.id);
    if (series?.length) {
      c.chart ??= chart(c.plot, "seconds", "positions/s", "#2563eb");
      c.chart?.setData([series.map((p) => p[0] - series[0][0]), series.map((p) => p[1])]);
    }
  } else if (run.kind === "match") {
    const [a, b] = s.names ?? run.spec.settings.engines.map((e) => e.name);
    c.kind.textContent = `test ${a} vs ${b}, ${describeLimits(run.spec.settings.limits)}`;
    c.progress.value = s.maxGames ? Math.min(1, s.games / s.maxGames) : 0;
    const t = s.tri ?? { wins: 0, losses: 0, draws: 0 };
    const items = [
      fact("games", `${fmt(s.games)} / ${fmt(run.spec.games)}`), fact("W–L–D", `${t.wins}–${t.losses}–${t.draws}`),
      fact("Elo", elo(s.elo)), fact("pairs", (s.penta ?? []).join(" ")), fact("LOS", s.los === undefined ? "–" : `${fmt(100 * s.los, 1)}%`),
    ];
    if (s.sprt) {
      items.push(fact(`LLR [${fmt(s.sprt.lower, 2)}, ${fmt(s.sprt.upper, 2)}]`, `${fmt(s.sprt.llr, 2)}${s.sprt.decision ? `, ${s.sprt.decision} accepted` : ""}`));
    }
    const faults = (s.faults ?? []).map((f) => Object.values(f).reduce((x, n) => x + n, 0));
    if (faults.some((n) => n > 0)) items.push(fact("faults", `${a} ${faults[0]}, ${b} ${faults[1]}`));
    c.facts.replaceChildren(...items);
    if (s.sprt && s.llrHistory?.length) {
      c.chart ??= chart(c.plot, "games", "LLR", "#16a34a", ["lower", "upper"]);
      const xs = s.llrHistory.map((p) => p[0]);
      c.chart?.setData([xs, s.llrHistory.map((p) => p[1]), xs.map(() => s.sprt.lower), xs.map(() => s.sprt.upper)]);
    }
  }
  if (run.kind === "analysis") {
    c.kind.textContent = `game analysis, ${fmt(run.spec.nodes)} nodes a position`;
    c.progress.value = s.games ? Math.min(1, s.analysed / s.games) : 0;
    const m = s.marks ?? { white: {}, black: {} };
    const side = (x) => `${x.inaccuracy ?? 0} ?!, ${x.mistake ?? 0} ?, ${x.blunder ?? 0} ??`;
    const items = [fact("games", `${fmt(s.analysed)} / ${fmt(s.games)}`), fact("white", side(m.white)), fact("black", side(m.black)), fact("positions", fmt(s.positions))];
    if (run.spec.unreadableCount) {
      items.push(fact("unreadable", `${run.spec.unreadableCount} (${run.spec.unreadable.slice(0, 5).map((u) => `game ${u.game}`).join(", ")})`));
    }
    c.facts.replaceChildren(...items);
  }
  if (run.kind === "perft") {
    c.kind.textContent = `perft(${run.spec.depth}) of ${run.spec.fen}${run.spec.verify ? ", counted twice" : ""}`;
    c.progress.value = s.batches ? Math.min(1, s.counted / s.batches) : 0;
    // Counts come as decimal strings (exact past 2^53).
    const big = (t) => (/^\d+$/.test(t ?? "") ? BigInt(t).toLocaleString("en-US") : "–");
    const items = [fact("batches", `${fmt(s.counted ?? 0)} / ${s.batches ? fmt(s.batches) : "–"}`), fact("leaves so far", big(s.leaves ?? "0"))];
    if (s.nodes !== undefined) items.push(fact("perft", big(s.nodes)), fact("time", `${fmt(s.seconds, 1)} s`), fact("workers", fmt(s.workers)));
    c.facts.replaceChildren(...items);
  }
  const wanted = `${run.state}`;
  if (c.actionsFor !== wanted) {
    c.actionsFor = wanted;
    const buttons = [];
    if (run.state === "running") buttons.push(el("button", { onclick: () => api("POST", `/api/runs/${encodeURIComponent(run.id)}/cancel`) }, "Cancel"));
    if (run.state === "stopped") buttons.push(el("button", { onclick: () => api("POST", `/api/runs/${encodeURIComponent(run.id)}/resume`) }, "Resume"));
    if (run.kind === "data") buttons.push(el("button", { onclick: () => download(`/api/runs/${encodeURIComponent(run.id)}/positions.bin`, `${run.id}.bin`) }, "Records"));
    if (run.kind === "match" || run.kind === "analysis") buttons.push(el("button", { onclick: () => download(`/api/runs/${encodeURIComponent(run.id)}/games.pgn`, `${run.id}.pgn`) }, "PGN"));
    c.actions.replaceChildren(...buttons);
  }
  return c.root;
}

function describeLimits(l) {
  if (l.kind === "tc") return `${l.movesPerSession ? `${l.movesPerSession}/` : ""}${l.baseMs / 1000}+${l.incMs / 1000}`;
  if (l.kind === "nodes") return `${fmt(l.nodes)} nodes`;
  if (l.kind === "movetime") return `${l.ms} ms a move`;
  return `depth ${l.depth}`;
}

function render(state) {
  const now = Date.now();
  document.querySelector("#service").textContent = `version ${state.version}, code ${state.code}`;
  renderWorkers(state.workers, now);
  renderFlags(state.flags);
  document.querySelector("#runs").replaceChildren(...state.runs.map((r) => renderRun(r, now)));
}

function connect() {
  events?.close();
  const status = document.querySelector("#connection");
  events = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
  events.addEventListener("state", (ev) => {
    status.textContent = "live";
    status.className = "connection live";
    render(JSON.parse(ev.data));
  });
  events.addEventListener("error", () => {
    status.textContent = "reconnecting…";
    status.className = "connection";
  });
}

async function login(candidate) {
  const res = await fetch("/api/runs", { headers: { authorization: `Bearer ${candidate}` } });
  if (!res.ok) {
    document.querySelector("#login").hidden = false;
    document.querySelector("#login-error").textContent = res.status === 401 ? "wrong token" : `error ${res.status}`;
    return;
  }
  token = candidate;
  sessionStorage.setItem(TOKEN_KEY, token);
  document.querySelector("#login").hidden = true;
  document.querySelector("#main").hidden = false;
  connect();
}

const fromAddress = new URLSearchParams(location.hash.slice(1)).get("token");
if (fromAddress) history.replaceState(null, "", location.pathname);
document.querySelector("#login").addEventListener("submit", (ev) => {
  ev.preventDefault();
  void login(document.querySelector("#token").value.trim());
});
const saved = fromAddress ?? sessionStorage.getItem(TOKEN_KEY);
if (saved) void login(saved);
else document.querySelector("#login").hidden = false;
