// The review of a finished game (`GET /api/tables/{id}/review`), drawn for the end panel and
// the replay: each seat's statistics, every move's label, and a chart of the loss move by move.
import { el, svg } from "/static/common.js";
import { _ } from "/static/i18n.js";

const STATS = {
  disputes_right: () => _("disputes right"),
  disputes_wrong: () => _("disputes wrong"),
  guesses_held: () => _("guesses that held"),
  guesses_failed: () => _("guesses that failed"),
  bluffs_played: () => _("bluffs played"),
  bluffs_caught: () => _("bluffs caught"),
  calls_right: () => _("calls right"),
  calls_wrong: () => _("calls wrong"),
  spells_cast: () => _("spells cast"),
  spells_won: () => _("spells won"),
  average_loss: () => _("average loss"),
};

/** A move's label (good, inaccuracy, mistake, blunder) in the page's language. */
export function labelText(label) {
  const words = { good: _("good"), inaccuracy: _("inaccuracy"), mistake: _("mistake"), blunder: _("blunder") };
  return words[label] || label;
}

/** An action as the record writes it, in words: "guess 25", "mouse on owl", "spell on bear". */
export function actionText(action) {
  if (!action) return "";
  if (action.action === "guess") {
    return action.extra_feather_to == null ? _("guess {value}", { value: action.value }) : _("guess {value} (extra feather to seat {seat})", { value: action.value, seat: action.extra_feather_to });
  }
  if (action.action === "play") return _("{card} on {tile}", { card: action.card, tile: action.tile });
  if (action.action === "spell") return _("spell on {tile}", { tile: action.tile });
  const rest = Object.entries(action).filter(([k]) => k !== "action").map(([k, v]) => `${k} ${v}`);
  return [action.action, ...rest].join(" ");
}

/** Each seat's accuracy, mistakes, blunders and the game's own statistics, as a table. */
export function statsTable(review, nameOf) {
  const seats = Object.keys(review.seats);
  const keys = Object.keys(review.statistics[seats[0]] || {});
  const head = el("tr", {}, el("th", {}, ""), el("th", {}, _("accuracy")), el("th", {}, _("mistakes")), el("th", {}, _("blunders")),
    keys.map((k) => el("th", {}, STATS[k] ? STATS[k]() : k.replaceAll("_", " "))));
  const rows = seats.map((s) => {
    const f = review.seats[s];
    const st = review.statistics[s] || {};
    return el("tr", { dataset: { seat: s } }, el("th", { scope: "row" }, el("span", { class: `loss-key rv-seat-${s}` }), nameOf(Number(s))),
      el("td", {}, `${f.accuracy.toFixed(1)}%`), el("td", {}, String(f.mistakes)), el("td", {}, String(f.blunders)),
      keys.map((k) => el("td", {}, k === "average_loss" ? Number(st[k]).toFixed(3) : String(st[k]))));
  });
  return el("div", { class: "review-stats-wrap" }, el("table", { class: "review-stats" }, el("thead", {}, head), el("tbody", {}, rows)));
}

/** Every seat's loss move by move: one line a seat, a dot a decision (click: go to that move). */
export function lossChart(review, nameOf, onPick) {
  const width = 640;
  const height = 170;
  const left = 34;
  const top = 10;
  const plotW = width - left - 10;
  const plotH = height - top - 26;
  const moves = review.decisions;
  const n = Math.max(1, moves.length - 1);
  const x = (i) => left + (plotW * i) / n;
  const y = (loss) => top + plotH * (1 - loss);
  const parts = [];
  for (const level of [0, 0.05, 0.1, 0.2, 0.5, 1]) {
    parts.push(svg("line", { x1: left, x2: left + plotW, y1: y(level), y2: y(level), class: `loss-grid${level === 0 ? " base" : ""}` }));
    if ([0, 0.2, 0.5, 1].includes(level)) parts.push(svg("text", { x: left - 4, y: y(level) + 3, class: "loss-tick" }, level.toFixed(1)));
  }
  parts.push(svg("text", { x: left, y: height - 6, class: "loss-axis" }, _("moves of the game, in order →")));
  for (const s of Object.keys(review.seats)) {
    const mine = moves.map((d, i) => [d, i]).filter(([d]) => String(d.seat) === s);
    if (!mine.length) continue;
    const points = mine.map(([d, i]) => `${x(i).toFixed(1)},${y(d.loss).toFixed(1)}`).join(" ");
    parts.push(svg("polyline", { points, class: `loss-line rv-seat-${s}` }));
    for (const [d, i] of mine) {
      const dot = svg("circle", { cx: x(i).toFixed(1), cy: y(d.loss).toFixed(1), r: d.label === "good" ? 2.5 : 4, class: `loss-dot rv-seat-${s} ${d.label}`, "data-index": d.index },
        svg("title", {}, _("{name}: {move}, {label} (loss {loss})", { name: nameOf(d.seat), move: actionText(d.played), label: labelText(d.label), loss: d.loss.toFixed(2) })));
      if (onPick) dot.addEventListener("click", () => onPick(d));
      parts.push(dot);
    }
  }
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "loss-chart", role: "img", "aria-label": _("Each seat's loss, move by move") }, parts);
  const legend = el("p", { class: "loss-legend" }, Object.keys(review.seats).map((s) => el("span", {}, el("span", { class: `loss-key rv-seat-${s}` }), nameOf(Number(s)))));
  return el("figure", { class: "loss-figure" }, chart, legend);
}

/** The line shown beside a move: its label, the better move where it differs, the odds or read. */
export function moveVerdict(decision, nameOf) {
  if (!decision) return null;
  const parts = [el("span", { class: `review-label ${decision.label}` }, labelText(decision.label))];
  parts.push(` ${nameOf(decision.seat)}: ${actionText(decision.played)}`);
  if (decision.forced) parts.push(_(" (the only move)"));
  else if (JSON.stringify(decision.best) !== JSON.stringify(decision.played)) {
    parts.push(el("span", { class: "review-better" }, _(" — better: {move} (loss {loss})", { move: actionText(decision.best), loss: decision.loss.toFixed(2) })));
  }
  const box = el("div", { class: "review-move", dataset: { index: decision.index } }, el("p", {}, parts));
  if (!decision.forced) box.append(el("p", { class: "review-note" }, decision.note));
  return box;
}
