// The lobby: start a table (game, seats, bots, options), join an open one, watch or replay.
import { _, ngettext, pgettext } from "/static/i18n.js";
import { api, el, forgetSeat, logo, ratingText, refusalBox, saveName, saveSeat, savedName, savedSeats, seatRatings, toast } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const BLURB = {
  powwow: _("Guess the total of the feathers on every head but your own."),
  wakatanka: _("Place cards face down on the animal tiles, and bluff."),
};
let games = [];
const PAGE = 10;
let offset = 0;
/** the signed-in players' ratings at the tables listed: {tableId: {seat: {rating, provisional}}} */
let ratings = {};
/** The signed-in account (null: a guest). */
let account = null;

async function start() {
  $("hero-logo").append(logo(56));
  $("your-name").value = savedName();
  try {
    games = await api("/api/games");
  } catch (error) {
    toast(error.message);
    return;
  }
  const choice = $("game-choice");
  games.forEach((g, i) => {
    const id = `game-${g.name}`;
    choice.append(
      el("input", { type: "radio", name: "game", id, value: g.name, checked: i === 0, onchange: gameChanged }),
      el("label", { for: id }, el("strong", {}, g.title), el("span", { class: "muted" }, BLURB[g.name] || _("{min} to {max} players", { min: g.min_players, max: g.max_players }))),
    );
  });
  $("players").addEventListener("change", drawSeats);
  $("new-table").addEventListener("submit", create);
  // the page opens with the button off: a click before this script is ready would send the
  // form as a plain page load
  $("create-btn").disabled = false;
  $("newer").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); refresh(); });
  $("older").addEventListener("click", () => { offset += PAGE; refresh(); });
  gameChanged();
  await signedIn();
  refresh();
  mine();
  setInterval(refresh, 5000);
}

const chosen = () => games.find((g) => g.name === document.querySelector("input[name=game]:checked").value);

function gameChanged() {
  const g = chosen();
  const players = $("players");
  players.replaceChildren(...Array.from({ length: g.max_players - g.min_players + 1 }, (_, i) => {
    const n = g.min_players + i;
    return el("option", { value: n, selected: n === g.default_players }, ngettext("{n} player", "{n} players", n));
  }));
  drawSeats();
  drawOptions(g);
}

function drawSeats() {
  const g = chosen();
  const n = Number($("players").value);
  const levels = g.bot_levels;
  const preferred = levels.includes("medium") ? "medium" : levels[0];
  const rows = [];
  for (let s = 0; s < n; s++) {
    const id = `seat-${s}`;
    const options = s === 0
      ? [el("option", { value: "you" }, _("You"))]
      : [el("option", { value: "open" }, _("A friend (invite link)")), ...levels.map((l) => el("option", { value: `bot:${l}`, selected: l === preferred }, _("Bot: {level}", { level: pgettext("level", l) })))];
    rows.push(el("div", { class: "seat-row" }, el("label", { for: id }, _("Seat {seat}", { seat: s })), el("select", { id, "data-seat": s, disabled: s === 0 }, options)));
  }
  $("seats").replaceChildren(...rows);
}

function drawOptions(g) {
  const fields = g.options.filter((o) => o.name !== "first_player");
  const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  $("options").replaceChildren(...fields.map((o) => {
    const id = `opt-${o.name}`;
    const named = o.name.replace(/_/g, " ");
    const said = _(o.description); // the game's own words (marked in its options), in the page's language
    const text = said !== o.description || said.includes(named) ? said : `${named} — ${said}`;
    o = { ...o, description: sentence(text) };
    if (o.type === "bool") {
      return el("label", { class: "check", for: id }, el("input", { type: "checkbox", id, "data-option": o.name, checked: !!o.default }), o.description);
    }
    return el("div", { class: "field" },
      el("label", { for: id }, o.description + (o.nullable ? _(" (empty: never)") : "")),
      el("input", { type: "number", id, "data-option": o.name, "data-nullable": o.nullable ? "1" : "", value: o.default ?? "", min: o.min ?? undefined, max: o.max ?? undefined, step: 1 }));
  }));
}

async function create(event) {
  event.preventDefault();
  const g = chosen();
  const name = $("your-name").value.trim();
  $("form-error").textContent = "";
  $("form-refusal").hidden = true;
  $("form-refusal").replaceChildren();
  if (!name) {
    $("form-error").textContent = _("Enter your name first.");
    $("your-name").focus();
    return;
  }
  const bots = {};
  document.querySelectorAll("#seats select").forEach((select) => {
    if (select.value.startsWith("bot:")) bots[select.dataset.seat] = select.value.slice(4);
  });
  const options = {};
  document.querySelectorAll("[data-option]").forEach((input) => {
    const key = input.dataset.option;
    if (input.type === "checkbox") options[key] = input.checked;
    else if (input.value === "" && input.dataset.nullable) options[key] = null;
    else options[key] = Number(input.value);
  });
  $("create-btn").disabled = true;
  const body = { game: g.name, players: Number($("players").value), options, bots, name, seat: 0 };
  // sent only when asked for: an unlisted table without a clock is the default
  if ($("listed").checked) body.listed = true;
  if ($("rated").checked) body.rated = true;
  if ($("clock").value) body.clock = Number($("clock").value);
  try {
    const made = await api("/api/tables", { method: "POST", body });
    if (!account) saveName(name);
    saveSeat(made.id, made.seat, made.token);
    location.assign(`/t/${made.id}`);
  } catch (error) {
    if (error.status === 429) refused(error);
    else {
      $("form-error").textContent = error.message;
      $("create-btn").disabled = false;
    }
  }
}

/** Too many tables from this address: say so plainly, what to do, and when to try again. */
function refused(error) {
  const timed = error.retryAfter !== null && error.retryAfter !== undefined;
  const advice = timed
    ? _("One address may open only so many tables a minute, so that no script can fill the server. Your tables so far are kept (Your games).")
    : _("Tables waiting for friends count until their game starts: start a game at one of them, cancel one from its page (Cancel this table), or play with bots only, which never waits.");
  const box = refusalBox({
    heading: _("You cannot start another table just now"),
    reason: error.message,
    advice,
    retryAfter: timed ? error.retryAfter : null,
    ready: () => { $("create-btn").disabled = false; },
  });
  $("form-refusal").replaceChildren(box);
  $("form-refusal").hidden = false;
}

async function refresh() {
  let listing;
  try {
    listing = await api(`/api/tables?offset=${offset}&limit=${PAGE}`);
  } catch {
    return;
  }
  const lists = [listing.waiting || [], listing.playing || [], listing.finished || []];
  if (offset > 0 && lists.every((l) => !l.length)) {
    // paged past the end (tables finish and expire): back one page
    offset = Math.max(0, offset - PAGE);
    refresh();
    return;
  }
  $("newer").disabled = offset === 0;
  $("older").disabled = !lists.some((l) => l.length >= PAGE);
  $("page-label").textContent = offset ? _("tables {first}–{last}", { first: offset + 1, last: offset + PAGE }) : "";
  ratings = await seatRatings(lists.flat().map((t) => t.id));
  fill("open-tables", listing.waiting, (t) => [_("Join"), `/t/${t.id}`], _("No table is waiting for players."));
  fill("live-tables", listing.playing, (t) => [_("Watch"), `/t/${t.id}`], _("Nobody is playing right now."));
  fill("done-tables", listing.finished, (t) => [_("Replay"), `/replay/${t.id}`], _("No finished games yet."));
}

function fill(id, tables, link, empty) {
  const list = $(id);
  if (!tables.length) {
    list.replaceChildren(el("li", { class: "empty" }, empty));
    return;
  }
  list.replaceChildren(...tables.map((t) => {
    const [label, href] = link(t);
    const rated = (s) => (ratingText(ratings, t.id, s.seat) ? ` (${ratingText(ratings, t.id, s.seat)})` : "");
    const seated = t.seats.map((s) => (s.kind === "bot" ? _("{level} bot", { level: pgettext("level", s.level) }) : s.name ? `${s.name}${rated(s)}` : _("free seat"))).join(", ");
    const free = t.seats.filter((s) => !s.taken).length;
    return el("li", {},
      el("div", {}, el("strong", {}, t.title), " ", el("span", { class: "muted" }, ngettext("{n} player", "{n} players", t.players) + (free ? " · " + ngettext("{n} free", "{n} free", free) : "")),
        el("div", { class: "who" }, seated)),
      el("a", { class: "button", href, "aria-label": _("{action} {title} with {seats}", { action: label, title: t.title, seats: seated }) }, label));
  }));
}

/** Who is signed in: their name is the name they sit under, and they may open rated tables. */
async function signedIn() {
  try {
    const session = await api("/api/session");
    account = session.name ? session : null;
  } catch {
    account = null;
  }
  if (!account) return;
  const strip = $("account-strip");
  const [before, after] = _("Signed in as {name}").split("{name}");
  strip.replaceChildren(before, el("strong", { id: "signed-in-name" }, account.name), after, " · ", el("a", { href: "/account" }, _("Account")));
  $("your-name").value = account.name;
  $("your-name").readOnly = true;
  $("rated").disabled = false;
}

/** The tables this browser has a seat at (kept with their seat tokens), and, signed in, the
 * account's tables on any device; newest first. */
async function mine() {
  const seats = savedSeats().slice(0, 12);
  for (const t of account ? account.tables : []) {
    if (t.status !== "finished" && !seats.some((s) => s.id === t.id)) seats.push({ id: t.id, seat: t.seat });
  }
  const rows = await Promise.all(seats.map(async (s) => {
    try {
      return { ...s, table: await api(`/api/tables/${s.id}`) };
    } catch (error) {
      if (error.status === 404) forgetSeat(s.id); // the table is gone (expired or removed)
      return null;
    }
  }));
  const found = rows.filter(Boolean);
  $("mine-box").hidden = !found.length;
  $("my-tables").replaceChildren(...found.map(({ id, seat, table }) => {
    const turn = table.status === "playing" && table.to_move === seat;
    const state = table.status === "finished" ? _("finished") : table.status === "waiting" ? _("waiting for players") : turn ? _("your turn") : _("playing");
    const href = table.status === "finished" ? `/replay/${id}` : `/t/${id}`;
    const label = table.status === "finished" ? _("Replay") : turn ? pgettext("verb", "Play") : _("Open");
    return el("li", { class: turn ? "your-turn" : "" },
      el("div", {}, el("strong", {}, table.title), " ", el("span", { class: "muted" }, _("seat {seat} · {state}", { seat, state }))),
      el("a", { class: `button${turn ? " primary" : ""}`, href, "aria-label": _("{action} {title}, {state}", { action: label, title: table.title, state }) }, label));
  }));
}

start();
