// A player's profile: ratings per game with their history, games played and won, statistics,
// recent games linking to their replays. Every name goes in as text, never as markup.
import { api, el, svg } from "/static/common.js";
import { reviewCards } from "/static/profile-review.js";
import { _, lang, ngettext } from "/static/i18n.js";

const TITLES = { powwow: "Pow Wow", wakatanka: "Waka Tanka" };
const STAT_LABELS = {
  disputes_won: _("Disputes won"),
  disputes_lost: _("Disputes lost"),
  guesses: _("Guesses made"),
  guesses_disputed: _("Guesses disputed"),
  guesses_held: _("Disputed guesses that held"),
  bluffs_played: _("Bluffs played"),
  bluffs_caught: _("Bluffs caught"),
  calls: _("Calls"),
  calls_right: _("Calls right"),
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
    el("h2", {}, title(game), " ", el("a", { href: `/leaderboard/${game}`, class: "muted small" }, _("leaderboard"))),
    el("p", { class: "rating-line" },
      el("strong", { class: "rating", "data-rating": r.rating }, shown(r)),
      r.provisional ? el("span", { class: "muted" }, ngettext(" provisional (fewer than {n} rated game)", " provisional (fewer than {n} rated games)", r.provisional_games)) : null),
    el("p", { class: "muted" }, ngettext("{n} rated game, {wins} won · {played} played in all, {won} won", "{n} rated games, {wins} won · {played} played in all, {won} won", r.games, { wins: r.wins, played: r.played, won: r.won })),
    r.history.length ? chart(r.history, _("{game} rating after each rated game", { game: title(game) })) : el("p", { class: "muted" }, _("No rated game yet.")),
    stats.length ? el("dl", { class: "stats" }, stats.flatMap(([k, v]) => [el("dt", {}, STAT_LABELS[k] || k), el("dd", {}, String(v))])) : null,
  );
}

function gameRow(g) {
  const result = g.won ? _("won") : g.rank ? _("place {rank}", { rank: g.rank }) : _("lost");
  const change = g.rating_after != null && g.rating_before != null ? g.rating_after - g.rating_before : null;
  return el("li", {},
    el("a", { href: `/replay/${g.table}` }, title(g.game)),
    " ", el("span", { class: g.won ? "good" : "muted" }, result),
    g.rated ? el("span", { class: "muted" }, _(" · rated"), change === null ? "" : ` ${change >= 0 ? "+" : ""}${change}`) : el("span", { class: "muted" }, _(" · casual")),
    el("span", { class: "muted" }, ` · ${new Date(g.at * 1000).toLocaleDateString(lang === "xx" ? "en" : lang)}`),
  );
}

async function main() {
  const name = decodeURIComponent(location.pathname.split("/").pop());
  const root = document.getElementById("profile");
  let data;
  try {
    data = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    root.replaceChildren(el("p", { class: "notice" }, error.status === 404 ? _("There is no player by that name.") : error.message));
    return;
  }
  document.getElementById("title").textContent = data.name;
  document.title = `${data.name} — Campfire`;
  root.replaceChildren(
    el("div", { class: "rating-cards" }, Object.entries(data.ratings).map(([game, r]) => gameCard(game, r))),
    reviewCards(data.review),
    el("section", { class: "card-box" },
      el("h2", {}, _("Recent games")),
      data.games.length ? el("ol", { class: "recent-games" }, data.games.map(gameRow)) : el("p", { class: "muted" }, _("No finished game yet."))),
  );
}

main();
