// What the stored reviews of a player's games say, per game: how many were reviewed, the average
// accuracy and the statistics that teach (GET /api/players/{name}, "review"). Only games someone
// already had reviewed count: a profile never asks for a review.
import { el } from "/static/common.js";
import { _, ngettext, number } from "/static/i18n.js";

const TITLES = { powwow: "Pow Wow", wakatanka: "Waka Tanka" };

function label(key) {
  const labels = {
    disputes_right: _("Disputes right"),
    disputes_wrong: _("Disputes wrong"),
    guesses_held: _("Guesses that held"),
    guesses_failed: _("Guesses that failed"),
    bluffs_played: _("Bluffs played"),
    bluffs_caught: _("Bluffs caught"),
    calls_right: _("Calls right"),
    calls_wrong: _("Calls wrong"),
    spells_cast: _("Spells cast"),
    spells_won: _("Spells won"),
    average_loss: _("Average loss per decision"),
  };
  return labels[key] || key.replaceAll("_", " ");
}

function reviewCard(game, totals) {
  const stats = Object.entries(totals.stats || {});
  return el("section", { class: "card-box review-card", "data-game": game },
    el("h2", {}, _("{game}: what the reviews say", { game: TITLES[game] || game })),
    el("p", { class: "rating-line" },
      el("strong", { class: "accuracy", "data-accuracy": totals.accuracy }, `${number(totals.accuracy)}%`),
      " ", el("span", { class: "muted" }, _("average accuracy"))),
    el("p", { class: "muted" }, ngettext("over {n} reviewed game", "over {n} reviewed games", totals.games)),
    stats.length ? el("dl", { class: "stats" }, stats.flatMap(([k, v]) =>
      [el("dt", {}, label(k)), el("dd", {}, k === "average_loss" ? Number(v).toFixed(3) : String(v))])) : null,
  );
}

/** The review figures of every game with a reviewed game (none: an empty fragment, nothing shown). */
export function reviewCards(review) {
  const cards = Object.entries(review || {}).filter(([, t]) => t && t.games > 0).map(([g, t]) => reviewCard(g, t));
  return cards.length ? el("div", { class: "rating-cards review-cards" }, cards) : document.createDocumentFragment();
}
