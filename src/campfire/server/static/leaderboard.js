// A game's leaderboard, best first, a page at a time (?offset=&limit=, as the API takes them).
import { api, el } from "/static/common.js";
import { _, ngettext } from "/static/i18n.js";

const TITLES = { powwow: "Pow Wow", wakatanka: "Waka Tanka" };

async function main() {
  const game = decodeURIComponent(location.pathname.split("/").pop());
  const query = new URLSearchParams(location.search);
  const limit = Number(query.get("limit")) || 50;
  const offset = Number(query.get("offset")) || 0;
  const root = document.getElementById("board");
  let data;
  try {
    data = await api(`/api/leaderboard/${encodeURIComponent(game)}?limit=${limit}&offset=${offset}`);
  } catch (error) {
    root.replaceChildren(el("p", { class: "notice" }, error.message));
    return;
  }
  const heading = _("{game} leaderboard", { game: TITLES[data.game] || data.game });
  document.getElementById("title").textContent = heading;
  document.title = `${heading} — Campfire`;
  const page = (at) => `/leaderboard/${encodeURIComponent(data.game)}?offset=${at}&limit=${limit}`;
  root.replaceChildren(
    el("section", { class: "card-box" },
      data.players.length === 0 ? el("p", { class: "muted" }, _("Nobody has a rating in this game yet.")) :
        el("table", { class: "leaderboard" },
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, _("Player")), el("th", { scope: "col" }, _("Rating")), el("th", { scope: "col" }, _("Games")))),
          el("tbody", {}, data.players.map((p) => el("tr", {},
            el("td", {}, String(p.rank)),
            el("td", { class: "player" }, el("a", { href: `/p/${encodeURIComponent(p.name)}` }, p.name)),
            el("td", {}, `${p.rating}${p.provisional ? "?" : ""}`),
            el("td", {}, String(p.games)))))),
      el("nav", { class: "pager", "aria-label": _("Pages") },
        offset > 0 ? el("a", { class: "button ghost", href: page(Math.max(0, offset - limit)), rel: "prev" }, _("Better")) : null,
        offset + data.players.length < data.total ? el("a", { class: "button ghost", href: page(offset + limit), rel: "next" }, _("Next")) : null,
        el("span", { class: "muted" }, ngettext("{n} rated player; a ? marks a provisional rating", "{n} rated players; a ? marks a provisional rating", data.total))),
    ),
  );
}

main();
