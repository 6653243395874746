// A player's profile: ratings per game with their history, games played and won, statistics,
// recent games linking to their replays. Every name goes in as text, never as markup.
import { api, el, svg } from "/static/common.js";
import { reviewCards } from "/static/profile-review.js";

const TITLES = { powwow: "Pow Wow", wakatanka: "Waka Tanka" };
const STAT_LABELS = {
  disputes_won: "Disputes won",
  disputes_lost: "Disputes lost",
  guesses: "Guesses made",
  guesses_disputed: "Guesses disputed",
  guesses_held: "Disputed guesses that held",
  bluffs_played: "Bluffs played",
  bluffs_caught: "Bluffs caught",
  calls: "Calls",
  calls_right: "Calls right",
};
const title = (game) => TITLES[game] || game;
const shown = (r) => `${r.rating}${r.provisional ? "?" : ""}`;

/** The rating before the first rated game and after each one, as an inline SVG line scaled to
 * its own range. */
export function chart(history, label) {
  const w = 320, h = 120, pad = 24;
  // where it started, then after each game
  const points = history.length ? [history[0].before, ...history.map((p) => p.rating)] : [];
  const root = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "rating-chart", role: "img", "aria-label": label });
  if (points.length === 0) return root;
  const lo = Math.min(...points) - 10, hi = Math.max(...points) + 10;
  const x = (i) => pad + (points.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (points.length - 1));
  const y = (v) => h - pad - ((v - lo) * (h - 2 * pad)) / (hi - lo);
  root.append(
    svg("line", { x1: pad, y1: h - pad, x2: w - pad, y2: h - pad, class: "axis" }),
    svg("text", { x: 2, y: y(hi - 10) + 4, class: "tick" }, String(Math.round(hi - 10))),
    svg("text", { x: 2, y: y(lo + 10) + 4, class: "tick" }, String(Math.round(lo + 10))),
    svg("polyline", { points: points.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "line" }),
    ...points.map((v, i) => svg("circle", { cx: x(i), cy: y(v), r: 3, class: "dot" }, svg("title", {}, String(v)))),
  );
  return root;
}

function gameCard(game, r) {
  const stats = Object.entries(r.stats || {});
  return el("section", { class: "card-box rating-card", "data-game": game },
    el("h2", {}, title(game), " ", el("a", { href: `/leaderboard/${game}`, class: "muted small" }, "leaderboard")),
    el("p", { class: "rating-line" },
      el("strong", { class: "rating", "data-rating": r.rating }, shown(r)),
      r.provisional ? el("span", { class: "muted" }, ` provisional (fewer than ${r.provisional_games} rated games)`) : null),
    el("p", { class: "muted" }, `${r.games} rated ${r.games === 1 ? "game" : "games"}, ${r.wins} won · ${r.played} played in all, ${r.won} won`),
    r.history.length ? chart(r.history, `${title(game)} rating after each rated game`) : el("p", { class: "muted" }, "No rated game yet."),
    stats.length ? el("dl", { class: "stats" }, stats.flatMap(([k, v]) => [el("dt", {}, STAT_LABELS[k] || k), el("dd", {}, String(v))])) : null,
  );
}

function gameRow(g) {
  const result = g.won ? "won" : g.rank ? `place ${g.rank}` : "lost";
  const change = g.rating_after != null && g.rating_before != null ? g.rating_after - g.rating_before : null;
  return el("li", {},
    el("a", { href: `/replay/${g.table}` }, title(g.game)),
    " ", el("span", { class: g.won ? "good" : "muted" }, result),
    g.rated ? el("span", { class: "muted" }, " · rated", change === null ? "" : ` ${change >= 0 ? "+" : ""}${change}`) : el("span", { class: "muted" }, " · casual"),
    el("span", { class: "muted" }, ` · ${new Date(g.at * 1000).toLocaleDateString()}`),
  );
}

async function main() {
  const name = decodeURIComponent(location.pathname.split("/").pop());
  const root = document.getElementById("profile");
  let data;
  try {
    data = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    root.replaceChildren(el("p", { class: "notice" }, error.status === 404 ? "There is no player by that name." : error.message));
    return;
  }
  document.getElementById("title").textContent = data.name;
  document.title = `${data.name} — Campfire`;
  root.replaceChildren(
    el("div", { class: "rating-cards" }, Object.entries(data.ratings).map(([game, r]) => gameCard(game, r))),
    reviewCards(data.review),
    el("section", { class: "card-box" },
      el("h2", {}, "Recent games"),
      data.games.length ? el("ol", { class: "recent-games" }, data.games.map(gameRow)) : el("p", { class: "muted" }, "No finished game yet.")),
  );
}

main();
