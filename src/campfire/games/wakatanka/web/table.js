// Waka Tanka's board: six animal tiles in a circle, the marker, the players, your hand of cards.
import { el, phoneColumn, seatPositions, svg } from "/static/common.js";
import { _, lang, ngettext, pgettext } from "/static/i18n.js";

/** A tile or card by its name in the page's language. */
const named = (code) => pgettext("animal", code);

const fill = (node, ...children) => node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));

const TILES = ["coyote", "puma", "bear", "owl", "buffalo", "eagle"];
const COLORS = {
  coyote: "#c8915a", puma: "#d9a441", bear: "#8a5a35", owl: "#9b8b76", buffalo: "#5b4030", eagle: "#e8e4da", mouse: "#9ca3af",
};
const TINTS = {
  coyote: "#3a2a1c", puma: "#3b301a", bear: "#32241a", owl: "#2f2b26", buffalo: "#2b211b", eagle: "#1f2a36", mouse: "#2a2d33",
};

/** A simple drawn head for each animal (and the mouse), on a 48×48 grid. */
export function animal(kind, size = 44) {
  const c = COLORS[kind];
  const dark = "#1b1206";
  const parts = {
    coyote: [
      svg("path", { d: "M9 5 L19 19 L7 22 Z M39 5 L29 19 L41 22 Z", fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("path", { d: "M7 20 Q24 10 41 20 L35 33 Q24 47 13 33 Z", fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("path", { d: "M17 31 Q24 36 31 31 L27 40 Q24 44 21 40 Z", fill: "#f1dcc0" }),
      svg("circle", { cx: 17, cy: 24, r: 2, fill: dark }), svg("circle", { cx: 31, cy: 24, r: 2, fill: dark }),
      svg("circle", { cx: 24, cy: 38, r: 2.4, fill: dark }),
    ],
    puma: [
      svg("circle", { cx: 13, cy: 13, r: 6, fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("circle", { cx: 35, cy: 13, r: 6, fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("circle", { cx: 24, cy: 26, r: 16, fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("ellipse", { cx: 24, cy: 33, rx: 8, ry: 6, fill: "#f6e7c8" }),
      svg("path", { d: "M21 30 L27 30 L24 34 Z", fill: "#7a3b2e" }),
      svg("path", { d: "M15 23 L20 24 M28 24 L33 23", stroke: dark, "stroke-width": 2.2, "stroke-linecap": "round" }),
      svg("path", { d: "M16 34 L6 32 M16 36 L6 38 M32 34 L42 32 M32 36 L42 38", stroke: "#f6e7c8", "stroke-width": 0.8 }),
    ],
    bear: [
      svg("circle", { cx: 11, cy: 12, r: 7, fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("circle", { cx: 37, cy: 12, r: 7, fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("circle", { cx: 11, cy: 12, r: 3, fill: "#5a3a22" }), svg("circle", { cx: 37, cy: 12, r: 3, fill: "#5a3a22" }),
      svg("circle", { cx: 24, cy: 26, r: 17, fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("ellipse", { cx: 24, cy: 33, rx: 8, ry: 7, fill: "#c79a6b" }),
      svg("ellipse", { cx: 24, cy: 30, rx: 3.5, ry: 2.5, fill: dark }),
      svg("circle", { cx: 17, cy: 22, r: 2.2, fill: dark }), svg("circle", { cx: 31, cy: 22, r: 2.2, fill: dark }),
    ],
    owl: [
      svg("path", { d: "M10 6 L16 14 L9 16 Z M38 6 L32 14 L39 16 Z", fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("ellipse", { cx: 24, cy: 27, rx: 16, ry: 18, fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("circle", { cx: 17, cy: 22, r: 7, fill: "#fff7e0" }), svg("circle", { cx: 31, cy: 22, r: 7, fill: "#fff7e0" }),
      svg("circle", { cx: 17, cy: 22, r: 3.2, fill: dark }), svg("circle", { cx: 31, cy: 22, r: 3.2, fill: dark }),
      svg("path", { d: "M21 28 L27 28 L24 35 Z", fill: "#f59e0b" }),
      svg("path", { d: "M15 38 Q24 43 33 38", stroke: "#6f614f", "stroke-width": 1.5, fill: "none" }),
    ],
    buffalo: [
      svg("path", { d: "M12 18 Q2 16 4 6 Q8 13 15 13 M36 18 Q46 16 44 6 Q40 13 33 13", fill: "#efe6d2", stroke: dark, "stroke-width": 1.2 }),
      svg("path", { d: "M10 16 Q24 4 38 16 L36 34 Q24 46 12 34 Z", fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("path", { d: "M13 16 Q24 8 35 16 Q30 20 24 18 Q18 20 13 16 Z", fill: "#3a281d" }),
      svg("ellipse", { cx: 24, cy: 35, rx: 8, ry: 6, fill: "#7b5b45" }),
      svg("circle", { cx: 21, cy: 35, r: 1.5, fill: dark }), svg("circle", { cx: 27, cy: 35, r: 1.5, fill: dark }),
      svg("circle", { cx: 17, cy: 24, r: 2, fill: "#f4efe4" }), svg("circle", { cx: 31, cy: 24, r: 2, fill: "#f4efe4" }),
    ],
    eagle: [
      svg("path", { d: "M8 44 Q10 30 16 24 L32 24 Q38 30 40 44 Z", fill: "#6b4226" }),
      svg("path", { d: "M12 28 Q10 10 24 7 Q38 8 38 22 L34 28 Z", fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("path", { d: "M30 17 L44 20 Q44 28 36 28 L38 23 L31 23 Z", fill: "#f5b301", stroke: dark, "stroke-width": 1 }),
      svg("circle", { cx: 27, cy: 16, r: 2.3, fill: dark }),
      svg("path", { d: "M23 13 L31 14", stroke: dark, "stroke-width": 1.6 }),
    ],
    mouse: [
      svg("circle", { cx: 13, cy: 16, r: 9, fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("circle", { cx: 35, cy: 16, r: 9, fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("circle", { cx: 13, cy: 16, r: 5, fill: "#f2b8c6" }), svg("circle", { cx: 35, cy: 16, r: 5, fill: "#f2b8c6" }),
      svg("path", { d: "M12 26 Q24 16 36 26 Q32 40 24 42 Q16 40 12 26 Z", fill: c, stroke: dark, "stroke-width": 1.2 }),
      svg("circle", { cx: 24, cy: 40, r: 2.4, fill: "#f2879f" }),
      svg("circle", { cx: 19, cy: 29, r: 1.8, fill: dark }), svg("circle", { cx: 29, cy: 29, r: 1.8, fill: dark }),
      svg("path", { d: "M20 39 L8 36 M20 41 L8 43 M28 39 L40 36 M28 41 L40 43", stroke: "#4b5563", "stroke-width": 0.8 }),
    ],
  };
  return svg("svg", { viewBox: "0 0 48 48", width: size, height: size, class: `animal animal-${kind}`, "aria-hidden": "true" }, parts[kind]);
}

function cardFace(kind, { small = false, flip = false } = {}) {
  return el("span", { class: `wt-card face${small ? " small" : ""}${flip ? " flip" : ""}`, style: { "--tint": TINTS[kind] } },
    animal(kind, small ? 28 : 40), el("span", { class: "card-name" }, named(kind)));
}

function cardBack(small = true) {
  return el("span", { class: `wt-card back${small ? " small" : ""}`, "aria-hidden": "true" });
}

function tokenIcons(n) {
  return el("span", { class: "tokens", title: `${n} of 4 apprentice tokens` },
    Array.from({ length: 4 }, (_, i) => svg("svg", { viewBox: "0 0 20 20", width: 17, height: 17, class: i < n ? "token got" : "token" },
      svg("circle", { cx: 10, cy: 10, r: 8 }),
      svg("path", { d: "M10 4 L11.8 8.2 L16 8.6 L12.8 11.4 L13.8 15.6 L10 13.4 L6.2 15.6 L7.2 11.4 L4 8.6 L8.2 8.2 Z" }))));
}

function turnText(turn) {
  if (turn.action === "play") return _("played on {tile}", { tile: named(turn.tile) });
  if (turn.action === "spell") return _("spell on {tile}", { tile: named(turn.tile) });
  return turn.action === "call" ? _("called") : _("accepted");
}

export function createBoard({ stage, controls, side, ctx }) {
  const ring = el("div", { class: "ring wt-ring" });
  const felt = el("div", { class: "ring-felt" });
  const circle = el("div", { class: "wt-circle", role: "group", "aria-label": _("The six tiles") });
  ring.append(felt, circle);
  stage.append(ring);
  const reveals = el("section", { class: "card-box wt-reveals", "aria-label": _("Revealed stacks") });
  const removed = el("section", { class: "card-box wt-removed", "aria-label": _("Out of the game") });
  side.append(reveals, removed);

  const state = { msg: null, tile: null, card: null, busy: false, error: "", lastAt: -1 };
  let revealUntil = 0;

  async function send(action) {
    if (state.busy) return;
    state.busy = true;
    state.error = "";
    draw();
    try {
      await ctx.act(action);
      state.tile = null;
      state.card = null;
    } catch (e) {
      state.error = e.message;
      ctx.toast(e.message);
    } finally {
      state.busy = false;
      draw();
    }
  }

  function playable(tile) {
    const c = state.msg && state.msg.controls;
    return !!c && c.play.tiles.includes(tile);
  }

  function clickTile(tile) {
    const c = state.msg.controls;
    if (!c || state.busy) return;
    if (state.card && playable(tile) && c.play.cards.includes(state.card)) {
      send({ action: "play", tile, card: state.card });
      return;
    }
    state.tile = state.tile === tile ? null : tile;
    draw();
  }

  function clickCard(card) {
    const c = state.msg.controls;
    if (!c || state.busy) return;
    if (state.tile && playable(state.tile)) {
      send({ action: "play", tile: state.tile, card });
      return;
    }
    state.card = state.card === card ? null : card;
    draw();
  }

  function draw() {
    const msg = state.msg;
    if (!msg) return;
    const view = msg.view;
    // redrawing replaces the buttons: keep the keyboard focus on the same tile or card
    const active = document.activeElement;
    const tile = active && active.dataset ? active.dataset.tile : null;
    drawSeats(ring, view, msg.table, ctx);
    drawTiles(circle, view, msg, state, clickTile, ctx);
    drawReveals(reveals, view, ctx);
    drawRemoved(removed, view);
    drawControls(controls, msg, state, { clickCard, send, clear: () => { state.tile = null; state.card = null; draw(); } }, ctx);
    if (tile) {
      const again = circle.querySelector(`[data-tile="${tile}"]`);
      if (again && !again.disabled) again.focus();
      else if (controls.querySelector(".hand-card:not(:disabled)")) controls.querySelector(".hand-card:not(:disabled)").focus();
    }
  }

  function update(msg, info = {}) {
    state.msg = msg;
    if (msg.at !== state.lastAt) {
      state.lastAt = msg.at;
      if (!msg.controls) { state.tile = null; state.card = null; }
      if (state.tile && msg.controls && !msg.controls.play.tiles.includes(state.tile) && !msg.controls.spell.includes(state.tile)) state.tile = null;
      if (state.card && (!msg.view.hand || !msg.view.hand.includes(state.card))) state.card = null;
    }
    draw();
    const revealed = (info.newEvents || []).some((e) => e.kind === "call" || e.kind === "spell");
    if (revealed && msg.view.reveals.length) {
      const reveal = msg.view.reveals[msg.view.reveals.length - 1];
      showReveal(stage, reveal, msg.view, ctx);
      revealUntil = Date.now() + 1500 + reveal.cards.length * 450;
    }
  }

  function revealed(data) {
    // the replay: every hand and every face-down card, from the views of the seats that know them
    const views = data.views;
    const base = data.public;
    const stacks = {};
    for (const tile of TILES) {
      stacks[tile] = base.stacks[tile].map((slot, i) => ({ placer: slot.placer, card: views[slot.placer].stacks[tile][i].card }));
    }
    const view = { ...base, stacks, hands: views.map((v) => v.hand) };
    const msg = { view, controls: null, extras: data.extras, table: data.table, at: data.step };
    state.msg = msg;
    drawSeats(ring, view, data.table, ctx, view.hands);
    drawTiles(circle, view, msg, state, () => {}, ctx, true);
    drawReveals(reveals, view, ctx);
    drawRemoved(removed, view);
    controls.replaceChildren();
    stage.querySelectorAll(".wt-reveal").forEach((n) => n.remove());
    const shown = (data.events || []).some((e) => e.kind === "call" || e.kind === "spell");
    if (shown && view.reveals.length) showReveal(stage, view.reveals[view.reveals.length - 1], view, ctx, true);
  }

  return {
    update,
    revealed,
    endDelay: () => Math.max(0, revealUntil - Date.now()) + 400,
    summary: (msg) => summary(msg || state.msg, ctx),
  };
}

// --- players -------------------------------------------------------------------------------------
function drawSeats(ring, view, table, ctx, hands = null) {
  ring.querySelectorAll(".seat").forEach((n) => n.remove());
  const you = view.seat;
  const narrow = ring.clientWidth < 640;
  const tall = hands ? 170 : 112; // a replay shows every hand under its player
  const spots = seatPositions(view.players, you === null || you === undefined ? 0 : you, ring, narrow ? 104 : 150, narrow ? 92 : tall);
  const lastTurn = {};
  for (const turn of view.turns.slice(-view.players)) lastTurn[turn.player] = turn;
  for (let s = 0; s < view.players; s++) {
    const info = table.seats[s];
    const toMove = view.to_move === s;
    const tags = [];
    if (s === you) tags.push(_("you"));
    if (info.kind === "bot") tags.push(_("{level} bot", { level: info.level }));
    if (info.kind === "human" && !info.taken) tags.push(_("free seat"));
    else if (info.kind === "human" && !info.online && s !== you) tags.push(_("away"));
    const size = view.hand_sizes[s];
    const fan = el("span", { class: "fan", "aria-hidden": "true" }, Array.from({ length: Math.min(size, 6) }, () => cardBack(true)));
    const lastCard = view.last_card && view.last_play && view.last_play[0] === s;
    const bubble = lastCard
      ? el("div", { class: "bubble owner" }, _("last card!"))
      : lastTurn[s] ? el("div", { class: "bubble" }, turnText(lastTurn[s])) : null;
    const described = [ctx.name(s), toMove ? _("to play") : null, ngettext("{n} card in hand", "{n} cards in hand", size), _("{tokens} of 4 tokens", { tokens: view.tokens[s] })].filter(Boolean).join(", ");
    const place = (s - (you ?? 0) + view.players) % view.players; // places from the viewer
    const node = el("div", {
      class: `seat wt-seat${toMove ? " to-move" : ""}${s === you ? " me" : ""}`,
      style: { left: `${spots[s].left}%`, top: `${spots[s].top}%`, order: String(place), "--phone-column": phoneColumn(place, view.players) },
      role: "group",
      "aria-label": described,
      dataset: { seat: s },
    },
    bubble,
    el("div", { class: "seat-name" }, el("span", { class: "name-text" }, ctx.plainName(s)), ctx.rating && ctx.rating(s) ? el("span", { class: "seat-rating" }, ctx.rating(s)) : null, s === you ? el("span", { class: "you-badge" }, "you") : null),
    el("div", { class: `seat-tag${toMove ? " turn" : ""}` }, toMove ? "▶ to play" : tags.join(" · ") || "\u00a0"),
    el("div", { class: "wt-hand-size" }, fan, el("span", { class: "count" }, ngettext("{n} card", "{n} cards", size))),
    tokenIcons(view.tokens[s]),
    hands && hands[s] ? el("div", { class: "open-hand" }, hands[s].join(", ") || "empty") : null);
    ring.append(node);
  }
}

// --- the circle of tiles -------------------------------------------------------------------------
function drawTiles(circle, view, msg, state, clickTile, ctx, revealedMode = false) {
  const c = msg.controls;
  const near = (msg.extras && msg.extras.neighbours) || [];
  const lastTile = view.last_play ? view.last_play[1] : null;
  // radii that keep every tile inside the circle, whatever its size
  const width = circle.clientWidth || 520;
  const height = circle.clientHeight || 380;
  const small = width < 420;
  const rx = Math.min(38, 50 - (((small ? 74 : 108) / 2 + 6) / width) * 100);
  const ry = Math.min(36, 50 - (((small ? 80 : 118) / 2 + 6) / height) * 100);
  const buttons = TILES.map((tile, i) => {
    // coyote at the upper left, then clockwise round the circle
    const angle = (-2 * Math.PI) / 3 + (2 * Math.PI * i) / 6;
    const stack = view.stacks[tile];
    const mine = stack.filter((slot) => slot.card !== null && slot.card !== undefined);
    const classes = ["wt-tile"];
    const canPlay = !!c && c.play.tiles.includes(tile);
    const canSpell = !!c && c.spell.includes(tile);
    if (view.marker === tile) classes.push("marker");
    if (canPlay) classes.push("target");
    if (state.tile === tile) classes.push("selected");
    if (lastTile === tile) classes.push("last");
    const label = [
      _("{tile} tile", { tile: named(tile) }),
      ngettext("{n} card", "{n} cards", stack.length),
      view.marker === tile ? _("the marker is here") : null,
      canPlay ? _("you can play here") : null,
      canSpell ? _("you can cast a spell here") : null,
      mine.length ? _("you placed {cards}", { cards: mine.map((m) => named(m.card)).join(", ") }) : null,
    ].filter(Boolean).join(", ");
    const pile = el("span", { class: "pile", "aria-hidden": "true" }, stack.slice(-5).map(() => cardBack(true)));
    return el("button", {
      type: "button",
      class: classes.join(" "),
      style: { left: `${50 + rx * Math.cos(angle)}%`, top: `${50 + ry * Math.sin(angle)}%`, "--tint": TINTS[tile] },
      disabled: revealedMode || !c || (!canPlay && !canSpell) || state.busy,
      "aria-pressed": state.tile === tile ? "true" : "false",
      "aria-label": label,
      dataset: { tile },
      onclick: () => clickTile(tile),
    },
    view.marker === tile ? el("span", { class: "marker-badge", title: "the shaman marker" }, "marker") : null,
    animal(tile, 46),
    el("span", { class: "tile-name" }, tile),
    el("span", { class: "stack-count" }, pile, stack.length ? `${stack.length}` : "empty"),
    mine.length ? el("span", { class: "mine" }, revealedMode ? stack.map((s) => s.card).join(" · ") : `yours: ${mine.map((m) => m.card).join(", ")}`) : null,
    lastTile === tile ? el("span", { class: "last-tag" }, "just played") : null);
  });
  const hub = el("div", { class: "wt-hub" }, el("span", { class: "muted" }, "marker on"), el("strong", {}, view.marker || "—"),
    near.length ? el("span", { class: "muted small" }, `next: ${near.join(" or ")}`) : null);
  fill(circle, hub, buttons);
}

// --- controls: your hand and the other moves -----------------------------------------------------
function drawControls(root, msg, state, on, ctx) {
  const { view, controls: c, table } = msg;
  const parts = [];
  let status;
  if (table.status === "waiting") status = _("The game starts when every seat is taken.");
  else if (table.status === "finished") status = _("The game is over.");
  else if (view.seat === null || view.seat === undefined) status = _("You are watching: hands and face-down cards stay hidden.");
  else if (!c) status = view.to_move === null ? _("Dealing…") : _("Waiting for {name}…", { name: ctx.name(view.to_move) });
  else if (c.accept) status = _("{name} played their last card: call the bluff, or accept and let them win.", { name: ctx.name(view.last_play[0]) });
  else if (state.tile && c.play.tiles.includes(state.tile)) status = _("Place a card on the {tile} tile: pick one from your hand.", { tile: named(state.tile) });
  else if (state.card) status = _("Now pick a glowing tile for your {card}.", { card: named(state.card) });
  else if (state.tile) status = _("The {tile} tile is not next to the marker: you can cast a spell on it.", { tile: named(state.tile) });
  else status = _("Your move: pick a glowing tile next to the marker, then a card — or call, or cast a spell.");
  parts.push(el("p", { class: `wt-status${c ? " yours" : ""}`, role: "status" }, status));

  if (view.hand) {
    const counts = {};
    for (const card of view.hand) counts[card] = (counts[card] || 0) + 1;
    const kinds = [...TILES, "mouse"].filter((k) => counts[k]);
    const cardOk = (card) => !!c && c.play.cards.includes(card) && (!state.tile || c.play.tiles.includes(state.tile));
    const hand = el("div", { class: "wt-hand", role: "group", "aria-label": ngettext("Your hand, {n} card", "Your hand, {n} cards", view.hand.length) },
      kinds.length ? kinds.map((kind) => el("button", {
        type: "button",
        class: `wt-card face hand-card${state.card === kind ? " selected" : ""}`,
        style: { "--tint": TINTS[kind] },
        disabled: !cardOk(kind) || state.busy,
        "aria-pressed": state.card === kind ? "true" : "false",
        "aria-label": state.tile ? _("{card}, {count} in hand: place one on {tile}", { card: named(kind), count: counts[kind], tile: named(state.tile) }) : _("{card}, {count} in hand", { card: named(kind), count: counts[kind] }),
        dataset: { card: kind },
        onclick: () => on.clickCard(kind),
      }, animal(kind, 40), el("span", { class: "card-name" }, named(kind)), counts[kind] > 1 ? el("span", { class: "card-count" }, `×${counts[kind]}`) : null))
        : el("p", { class: "muted" }, _("Your hand is empty.")));
    parts.push(el("h2", { class: "hand-title" }, _("Your hand ({n})", { n: view.hand.length })), hand);
  }

  if (c) {
    const buttons = [];
    const lastPlayer = view.last_play ? view.last_play[0] : null;
    if (c.call || view.last_play) {
      buttons.push(el("button", { type: "button", id: "call-btn", class: "danger", disabled: !c.call || state.busy, onclick: () => on.send({ action: "call" }) },
        view.last_play ? _("Call {name}’s {tile}", { name: ctx.name(lastPlayer), tile: named(view.last_play[1]) }) : _("Call")));
    }
    if (c.accept) {
      buttons.push(el("button", { type: "button", id: "accept-btn", disabled: state.busy, onclick: () => on.send({ action: "accept" }) }, _("Accept: {name} wins", { name: ctx.name(lastPlayer) })));
    }
    if (!c.accept) {
      const spellTile = state.tile && c.spell.includes(state.tile) ? state.tile : null;
      buttons.push(el("button", {
        type: "button",
        id: "spell-btn",
        disabled: !spellTile || state.busy,
        title: spellTile ? "" : _("Select a tile with cards first"),
        onclick: () => on.send({ action: "spell", tile: spellTile }),
      }, spellTile ? _("Cast a spell on {tile} ({n})", { tile: named(spellTile), n: view.stacks[spellTile].length }) : _("Cast a spell (select a tile)")));
    }
    if (state.tile || state.card) buttons.push(el("button", { type: "button", class: "ghost", onclick: on.clear }, _("Clear selection")));
    parts.push(el("div", { class: "wt-moves" }, buttons));
  }
  if (state.error) parts.push(el("p", { class: "control-error", role: "alert" }, state.error));
  const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.card || document.activeElement.id : null;
  fill(root, parts);
  if (focused) {
    const again = root.querySelector(`[data-card="${focused}"]`) || document.getElementById(focused);
    if (again && !again.disabled) again.focus();
  }
}

// --- side panels ---------------------------------------------------------------------------------
function revealText(r, ctx) {
  if (r.action === "call") {
    return r.success
      ? ngettext("{name} called a bluff on {tile}; {taker} took {n} card.", "{name} called a bluff on {tile}; {taker} took {n} cards.", r.cards.length, { name: ctx.name(r.player), tile: named(r.tile), taker: ctx.name(r.taker) })
      : ngettext("{name} called on {tile}: it was true; {taker} took {n} card.", "{name} called on {tile}: it was true; {taker} took {n} cards.", r.cards.length, { name: ctx.name(r.player), tile: named(r.tile), taker: ctx.name(r.taker) });
  }
  return r.success
    ? ngettext("{name}'s spell on {tile} worked: {n} card left the game.", "{name}'s spell on {tile} worked: {n} cards left the game.", r.cards.length, { name: ctx.name(r.player), tile: named(r.tile) })
    : ngettext("{name}'s spell on {tile} failed: {taker} took {n} card.", "{name}'s spell on {tile} failed: {taker} took {n} cards.", r.cards.length, { name: ctx.name(r.player), tile: named(r.tile), taker: ctx.name(r.taker) });
}

function drawReveals(box, view, ctx) {
  const recent = view.reveals.slice(-6).reverse();
  const stage = document.getElementById("stage");
  fill(box,
    el("h2", {}, _("Reveals ({n})", { n: view.reveals.length })),
    recent.length && stage ? el("button", { type: "button", class: "ghost small", onclick: () => showReveal(stage, view.reveals[view.reveals.length - 1], view, ctx, true) }, _("Show the last reveal again")) : null,
    recent.length
      ? el("ol", { class: "wt-reveal-list" }, recent.map((r) => el("li", {}, revealText(r, ctx),
        el("span", { class: "mini-cards" }, r.cards.map((x) => el("span", { class: `chip chip-${x.card === r.tile ? "match" : "other"}`, title: _("placed by {name}", { name: ctx.name(x.placer) }) }, named(x.card)))))))
      : el("p", { class: "muted" }, _("No stack has been turned over yet.")));
}

function drawRemoved(box, view) {
  fill(box,
    el("h2", {}, _("Out of the game ({n})", { n: view.removed.length })),
    view.removed.length ? el("div", { class: "chips" }, view.removed.map((c) => el("span", { class: "chip chip-other" }, named(c))))
      : el("p", { class: "muted" }, _("Cards a working spell sends away land here.")));
}

// --- the reveal ----------------------------------------------------------------------------------
function showReveal(stage, reveal, view, ctx, quick = false) {
  stage.querySelectorAll(".wt-reveal").forEach((n) => n.remove());
  const step = quick ? 0.05 : 0.45;
  const cards = reveal.cards.map((x, i) => {
    const face = cardFace(x.card, { flip: true });
    face.style.animationDelay = `${(0.3 + i * step).toFixed(2)}s`;
    const top = reveal.action === "call" && i === reveal.cards.length - 1;
    return el("figure", { class: `reveal-card${top ? " top" : ""}${x.card === reveal.tile ? " match" : ""}` }, face,
      el("figcaption", {}, top ? _("{name} · just played", { name: ctx.name(x.placer) }) : ctx.name(x.placer)));
  });
  const after = `${(0.5 + reveal.cards.length * step).toFixed(2)}s`;
  const who = ctx.name(reveal.player);
  const mine = reveal.player === view.seat;
  const tile = named(reveal.tile);
  const title = reveal.action === "call"
    ? (mine ? _("You call the bluff on {tile}", { tile }) : _("{name} calls the bluff on {tile}", { name: who, tile }))
    : (mine ? _("You cast a spell on {tile}", { tile }) : _("{name} casts a spell on {tile}", { name: who, tile }));
  let verdict;
  const topCard = reveal.cards[reveal.cards.length - 1].card;
  const taker = reveal.taker === null ? null : ctx.name(reveal.taker);
  const n = reveal.cards.length;
  // English says "an owl"; the other languages name the animal alone ("la carte : chouette")
  const a = (code) => (lang === "en" ? article(code) : named(code));
  const takes = reveal.taker === view.seat
    ? ngettext("You take the {n} card.", "You take the {n} cards.", n)
    : ngettext("{taker} takes the {n} card.", "{taker} takes the {n} cards.", n, { taker });
  const gains = mine ? _("You gain an apprentice token.") : _("{name} gains an apprentice token.", { name: who });
  if (reveal.action === "call") {
    const card = a(topCard);
    verdict = reveal.success
      ? [_("The card is {card}, not {tile}: a bluff!", { card, tile: a(reveal.tile) }), takes, gains].join(" ")
      : [_("The card is {card}: true.", { card }), takes].join(" ");
  } else {
    const hits = reveal.cards.filter((x) => x.card === reveal.tile).length;
    const leave = mine
      ? _("The cards leave the game and you gain an apprentice token.")
      : _("The cards leave the game and {name} gains an apprentice token.", { name: who });
    const fails = hits ? _("Only one {tile} card: the spell fails.", { tile }) : _("No {tile} card: the spell fails.", { tile });
    verdict = reveal.success
      ? [ngettext("{n} {tile} card: the spell works!", "{n} {tile} cards: the spell works!", hits, { tile }), leave].join(" ")
      : [fails, takes].join(" ");
  }
  const verdictNode = el("p", { class: `verdict ${reveal.success ? "good" : "bad"}` }, verdict);
  verdictNode.style.animationDelay = after;
  const panel = el("section", { class: "wt-reveal", role: "dialog", "aria-label": title },
    el("div", { class: "reveal-body" },
      el("h2", {}, title),
      el("div", { class: "reveal-cards" }, cards),
      verdictNode));
  if (ctx.present) {
    // the table page: in view between the header and the moves, until Continue
    ctx.present(panel, { linger: 3200 + (0.5 + reveal.cards.length * step) * 1000, quick });
    return;
  }
  const close = el("button", { type: "button", class: "primary", onclick: () => panel.remove() }, "Continue");
  panel.append(el("div", { class: "reveal-close" }, close));
  panel.addEventListener("keydown", (e) => { if (e.key === "Escape") panel.remove(); });
  stage.append(panel);
}

function article(name) {
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

function summary(msg, ctx) {
  if (!msg) return null;
  const view = msg.view;
  const rows = [];
  for (let s = 0; s < view.players; s++) {
    rows.push(el("tr", {}, el("td", {}, ctx.name(s)), el("td", {}, String(view.tokens[s])), el("td", {}, String(view.hand_sizes[s])), el("td", {}, view.winners.includes(s) ? _("★ winner") : "")));
  }
  return el("table", { class: "summary" },
    el("thead", {}, el("tr", {}, el("th", {}, _("Player")), el("th", {}, _("Tokens")), el("th", {}, _("Cards")), el("th", {}, ""))),
    el("tbody", {}, rows));
}
