// Pow Wow's board: headbands around the fire, the standing guess, the controls, the count.
import { el, phoneColumn, seatPositions, svg } from "/static/common.js";
import { _, ngettext } from "/static/i18n.js";

const fill = (node, ...children) => node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));

const GREEN = new Set(["1", "2", "3", "4", "5", "10", "15", "20"]);
const LABEL = { max0: "max=0", x2: "×2", zero: "zero", "?": "?" };
const SPOKEN = { max0: _("max equals zero"), x2: _("times two"), zero: _("zero (reshuffle)"), "?": _("question mark") };

export function featherColor(code) {
  if (GREEN.has(code)) return "green";
  if (code === "0") return "blue";
  if (code === "-5" || code === "-10") return "red";
  return "black";
}

/** One feather as SVG; `code` null draws the back of a feather nobody at this seat may see. */
export function feather(code, { size = 1, flip = false, struck = false, extra = false } = {}) {
  const hidden = code === null || code === undefined;
  const color = hidden ? "hidden" : featherColor(code);
  const label = hidden ? "" : LABEL[code] || code;
  const node = svg("svg", {
    viewBox: "0 0 40 100",
    width: Math.round(30 * size),
    height: Math.round(76 * size),
    class: `feather feather-${color}${flip ? " flip" : ""}${struck ? " struck" : ""}${extra ? " extra" : ""}`,
    role: "img",
    "aria-label": hidden ? _("a hidden feather") : _("feather {feather}", { feather: SPOKEN[code] || code }),
  },
  svg("path", { class: "vane", d: "M20 2 C38 20 40 62 24 96 L16 96 C0 62 2 20 20 2 Z" }),
  svg("path", { class: "barbs", d: "M20 20 L30 30 M20 32 L32 42 M20 44 L32 55 M20 56 L30 66 M20 20 L10 30 M20 32 L8 42 M20 44 L8 55 M20 56 L10 66" }),
  svg("line", { class: "quill", x1: 20, y1: 8, x2: 20, y2: 99 }),
  hidden ? null : svg("circle", { class: "coin", cx: 20, cy: 46, r: label.length > 2 ? 16 : 13 }),
  hidden ? svg("text", { class: "back-mark", x: 20, y: 52, "text-anchor": "middle" }, "✦") : svg("text", {
    class: "value",
    x: 20,
    y: 46,
    "text-anchor": "middle",
    "dominant-baseline": "central",
    "font-size": label.length > 3 ? 9 : label.length > 2 ? 11 : 15,
  }, label),
  struck ? svg("line", { class: "strike", x1: 4, y1: 20, x2: 36, y2: 80 }) : null);
  return node;
}

function buzzardIcon(filled) {
  return svg("svg", { viewBox: "0 0 24 16", width: 22, height: 15, class: `buzzard ${filled ? "got" : "empty"}`, "aria-hidden": "true" },
    svg("path", { d: "M1 9 C5 4 8 4 12 8 C16 4 19 4 23 9 C19 7 16 8 12 12 C8 8 5 7 1 9 Z" }),
    svg("circle", { cx: 12, cy: 8, r: 1.6 }));
}

function tomahawkIcon(ready) {
  return svg("svg", { viewBox: "0 0 24 24", width: 22, height: 22, class: `tomahawk ${ready ? "ready" : "spent"}`, "aria-hidden": "true" },
    svg("line", { x1: 5, y1: 21, x2: 16, y2: 6, class: "handle" }),
    svg("path", { d: "M13 3 L21 7 L18 13 Q15 9 12 8 Z", class: "blade" }),
    ready ? null : svg("line", { x1: 3, y1: 3, x2: 21, y2: 21, class: "cross" }));
}

function directionIcon(direction) {
  // clockwise: the arrow runs round to the right; counter-clockwise is its mirror image
  return svg("svg", { viewBox: "0 0 48 48", width: 40, height: 40, class: "direction-icon", "aria-hidden": "true", transform: direction === 1 ? "" : "scale(-1 1)" },
    svg("path", { d: "M24 6 A18 18 0 1 1 7.5 16.5", fill: "none", "stroke-width": 4, "stroke-linecap": "round" }),
    svg("path", { d: "M2 12 L8 20 L14 11 Z", class: "head" }));
}

function turnText(turn, name) {
  if (turn.action === "guess") {
    return turn.extra_feather_to === undefined || turn.extra_feather_to === null
      ? `guess ${turn.value}`
      : `guess ${turn.value} + feather → ${name(turn.extra_feather_to)}`;
  }
  return turn.action;
}

export function createBoard({ stage, controls, side, ctx }) {
  const ring = el("div", { class: "ring pw-ring" });
  const felt = el("div", { class: "ring-felt" });
  const center = el("div", { class: "pw-center", "aria-live": "polite" });
  ring.append(felt, center);
  stage.append(ring);

  const history = el("section", { class: "card-box pw-history", "aria-label": _("This round") });
  const used = el("section", { class: "card-box pw-used", "aria-label": _("Used pile") });
  side.append(history, used);

  const ui = buildControls(controls, ctx);
  let last = null;
  let revealUntil = 0;

  function update(msg, info = {}) {
    last = msg;
    const view = msg.view;
    drawSeats(ring, view, msg.table, ctx, { revealed: false });
    drawCenter(center, view, ctx);
    drawHistory(history, view, ctx);
    drawUsed(used, view);
    ui.update(msg);
    const counted = (info.newEvents || []).some((e) => e.kind === "total");
    if (counted && view.rounds.length) {
      showReveal(stage, view, msg.extras.last_round, ctx);
      revealUntil = Date.now() + revealLength(view.rounds[view.rounds.length - 1]);
    }
  }

  function revealed(data) {
    // the replay: every seat's feathers, taken from the views of the other seats
    const views = data.views;
    const n = views.length;
    const view = { ...data.public, feathers: data.public.feathers.map((_, s) => views[(s + 1) % n].feathers[s]) };
    const table = data.table;
    drawSeats(ring, view, table, ctx, { revealed: true });
    drawCenter(center, view, ctx);
    drawHistory(history, view, ctx);
    drawUsed(used, view);
    controls.replaceChildren();
    const done = (data.events || []).some((e) => e.kind === "total");
    stage.querySelectorAll(".pw-reveal").forEach((n) => n.remove());
    if (done && view.rounds.length) showReveal(stage, view, data.extras.last_round, ctx, { quick: true });
  }

  return {
    update,
    revealed,
    endDelay: () => Math.max(0, revealUntil - Date.now()) + 400,
    summary: (msg) => summary(msg || last, ctx),
  };
}

// --- the seats -----------------------------------------------------------------------------------
function drawSeats(ring, view, table, ctx, { revealed }) {
  ring.querySelectorAll(".seat").forEach((n) => n.remove());
  const you = view.seat;
  const bottom = you === null || you === undefined ? 0 : you;
  const narrow = ring.clientWidth < 640;
  const spots = seatPositions(view.players, bottom, ring, narrow ? 112 : 168, narrow ? 118 : 150);
  const lastTurn = {};
  for (const turn of view.turns) lastTurn[turn.player] = turn;
  for (let s = 0; s < view.players; s++) {
    const out = view.out.includes(s);
    const info = table.seats[s];
    const toMove = view.to_move === s;
    const classes = ["seat", "pw-seat"];
    if (toMove) classes.push("to-move");
    if (s === you) classes.push("me");
    if (out) classes.push("out");
    const worn = view.feathers[s];
    const band = el("div", { class: "headband" },
      worn.length ? worn.map((code, i) => feather(code, { extra: i === 1 })) : el("span", { class: "no-feathers" }, out ? "out" : "—"));
    const buzzards = el("div", { class: "buzzards", title: _("{got} of {all} buzzards", { got: view.buzzards[s], all: view.options.buzzards }) },
      Array.from({ length: view.options.buzzards }, (_, i) => buzzardIcon(i < view.buzzards[s])));
    const tags = [];
    if (s === you) tags.push(_("you"));
    if (info.kind === "bot") tags.push(_("{level} bot", { level: info.level }));
    if (info.kind === "human" && !info.taken) tags.push(_("free seat"));
    else if (info.kind === "human" && !info.online && s !== you) tags.push(_("away"));
    let bubble = null;
    if (view.owner === s && view.guess !== null) {
      bubble = el("div", { class: "bubble owner", title: _("owns the standing guess") }, view.agreed ? _("★ {guess} (agreed)", { guess: view.guess }) : `★ ${view.guess}`);
    } else if (lastTurn[s]) {
      bubble = el("div", { class: "bubble" }, turnText(lastTurn[s], (t) => ctx.name(t)));
    }
    const described = [
      ctx.name(s),
      toMove ? _("to play") : null,
      out ? _("out of the game") : null,
      s === you && !revealed
        ? ngettext("wears {n} hidden feather", "wears {n} hidden feathers", worn.length)
        : worn.length ? _("wears {feathers}", { feathers: worn.map((c) => c === null ? _("a hidden feather") : c).join(_(" and ")) }) : _("wears nothing"),
      _("{got} of {all} buzzards", { got: view.buzzards[s], all: view.options.buzzards }),
      view.options.tomahawks ? (view.tomahawks[s] ? _("tomahawk ready") : _("tomahawk spent")) : null,
      view.owner === s ? _("owns the guess {guess}", { guess: view.guess }) : null,
    ].filter(Boolean).join(", ");
    const place = (s - (you ?? 0) + view.players) % view.players; // places from the viewer
    const node = el("div", {
      class: classes.join(" "),
      style: { left: `${spots[s].left}%`, top: `${spots[s].top}%`, order: String(place), "--phone-column": phoneColumn(place, view.players) },
      role: "group",
      "aria-label": described,
      dataset: { seat: s },
    },
    bubble,
    band,
    el("div", { class: "seat-name" }, el("span", { class: "name-text" }, ctx.plainName(s)), ctx.rating && ctx.rating(s) ? el("span", { class: "seat-rating" }, ctx.rating(s)) : null, s === you ? el("span", { class: "you-badge" }, "you") : null),
    el("div", { class: `seat-tag${toMove ? " turn" : ""}` }, toMove ? _("▶ to play") : tags.join(" · ") || "\u00a0"),
    el("div", { class: "seat-icons" }, buzzards, view.options.tomahawks && !out ? tomahawkIcon(view.tomahawks[s]) : null));
    ring.append(node);
  }
}

/** Who owns the standing guess, each language's sentence for each case. */
function ownerText(view, ctx) {
  if (view.owner === view.seat) return view.agreed ? _("You own it by agreeing") : _("You own it");
  const name = ctx.name(view.owner);
  return view.agreed ? _("{name} owns it by agreeing", { name }) : _("{name} owns it", { name });
}

function drawCenter(center, view, ctx) {
  const parts = [el("div", { class: "pw-round" }, view.round ? _("Round {round}", { round: view.round }) : _("Shuffling"))];
  if (view.guess === null || view.guess === undefined) {
    parts.push(el("div", { class: "pw-guess none" }, _("no guess yet")));
  } else {
    parts.push(el("div", { class: "pw-guess", "aria-label": _("standing guess {guess}", { guess: view.guess }) }, String(view.guess)));
    parts.push(el("div", { class: "pw-owner" }, ownerText(view, ctx)));
  }
  const way = view.direction === 1 ? _("clockwise") : _("counter-clockwise");
  parts.push(el("div", { class: "pw-facts" },
    el("span", { class: "pw-direction", title: _("play goes {way}", { way }) }, directionIcon(view.direction), el("span", {}, way)),
    el("span", { class: "pw-stack", title: _("feathers face down in the stack") }, feather(null, { size: 0.38 }), _("stack {n}", { n: view.stack_size }))));
  fill(center, parts);
}

function drawHistory(box, view, ctx) {
  const items = view.turns.map((turn, i) => {
    const owning = i === lastOwningTurn(view);
    return el("li", { class: owning ? "owning" : "" },
      el("span", { class: "who" }, ctx.name(turn.player)),
      el("span", {}, turnText(turn, (t) => ctx.name(t))),
      owning ? el("span", { class: "own-tag" }, _("★ standing")) : null);
  });
  fill(box,
    el("h2", {}, view.round ? _("Round {round}: guesses", { round: view.round }) : _("Guesses")),
    items.length ? el("ol", { class: "pw-turns" }, items) : el("p", { class: "muted" }, view.round ? `${ctx.name(view.first_player)} ${view.first_player === view.seat ? "open" : "opens"} the round.` : _("The feathers are being shuffled.")),
    view.rounds.length ? el("button", { type: "button", class: "ghost small", onclick: () => showReveal(box.closest("body").querySelector("#stage") || document.body, view, lastRoundExtras(view), ctx, { quick: true }) }, _("Show the last count again")) : null,
  );
}

function lastOwningTurn(view) {
  // the turn that made the standing guess's owner: their guess or their agree
  if (view.owner === null || view.owner === undefined) return -1;
  for (let i = view.turns.length - 1; i >= 0; i--) {
    const t = view.turns[i];
    if (t.player === view.owner && (t.action === "guess" || t.action === "agree")) return i;
  }
  return -1;
}

function drawUsed(box, view) {
  const order = (c) => (Number.isNaN(Number(c)) ? 100 : Number(c));
  const sorted = [...view.used].sort((a, b) => order(a) - order(b));
  box.replaceChildren(
    el("h2", {}, _("Used pile ({n})", { n: view.used.length })),
    sorted.length
      ? el("div", { class: "chips" }, sorted.map((c) => el("span", { class: `chip chip-${featherColor(c)}` }, LABEL[c] || c)))
      : el("p", { class: "muted" }, _("Empty: nothing counted since the last shuffle.")),
  );
}

// --- the controls --------------------------------------------------------------------------------
function buildControls(root, ctx) {
  const status = el("p", { class: "pw-wait", role: "status" });
  const input = el("input", { id: "guess-value", type: "number", inputmode: "numeric", step: 1, "aria-describedby": "guess-help" });
  const minus = el("button", { type: "button", class: "step", "aria-label": _("Lower the guess by one") }, "−");
  const plus = el("button", { type: "button", class: "step", "aria-label": _("Raise the guess by one") }, "+");
  const guessBtn = el("button", { type: "submit", class: "primary", id: "guess-btn" }, _("Guess"));
  const help = el("p", { id: "guess-help", class: "muted small" });
  const extraBox = el("fieldset", { class: "pw-extra" });
  const dispute = el("button", { type: "button", id: "dispute-btn", class: "danger" }, _("Dispute"));
  const agree = el("button", { type: "button", id: "agree-btn" }, _("Agree"));
  const reverse = el("button", { type: "button", id: "reverse-btn" }, _("Reverse"));
  const error = el("p", { class: "control-error", role: "alert" });
  const form = el("form", { class: "pw-guess-form", "aria-label": _("Make a guess") },
    el("label", { for: "guess-value" }, _("Your guess")),
    el("div", { class: "guess-row" }, minus, input, plus, guessBtn),
    help, extraBox);
  const others = el("div", { class: "pw-other-moves" }, dispute, agree, reverse);
  const moves = el("div", { class: "pw-moves" }, form, others);
  root.replaceChildren(status, moves, error);

  let msg = null;
  let busy = false;
  let lastAt = -1;

  const value = () => Number.parseInt(input.value, 10);
  const target = () => {
    const picked = extraBox.querySelector("input:checked");
    return picked && picked.value !== "" ? Number(picked.value) : null;
  };

  function refreshGuess() {
    const c = msg && msg.controls;
    if (!c || !c.guess) return;
    const v = value();
    const ok = Number.isInteger(v) && v >= c.guess.min && v <= c.guess.max;
    const t = target();
    guessBtn.disabled = busy || !ok;
    minus.disabled = busy || !(v > c.guess.min);
    plus.disabled = busy || !(v < c.guess.max);
    guessBtn.textContent = t === null ? _("Guess {value}", { value: ok ? v : "" }).trim() : _("Guess {value} + feather → {name}", { value: ok ? v : "", name: ctx.name(t) });
    help.textContent = ok
      ? (msg.view.guess === null ? _("Open the round with any total.") : _("Higher than {guess}.", { guess: msg.view.guess }))
      : _("Enter a whole number from {min} to {max}.", { min: c.guess.min, max: c.guess.max });
  }

  async function send(action) {
    if (busy) return;
    busy = true;
    error.textContent = "";
    render();
    try {
      await ctx.act(action);
    } catch (e) {
      error.textContent = e.message;
      ctx.toast(e.message);
    } finally {
      busy = false;
      render();
    }
  }

  input.addEventListener("input", refreshGuess);
  minus.addEventListener("click", () => { input.value = String(value() - 1); refreshGuess(); });
  plus.addEventListener("click", () => { input.value = String((Number.isInteger(value()) ? value() : msg.controls.guess.min - 1) + 1); refreshGuess(); });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (guessBtn.disabled) return;
    const action = { action: "guess", value: value() };
    const t = target();
    if (t !== null) action.extra_feather_to = t;
    send(action);
  });
  dispute.addEventListener("click", () => send({ action: "dispute" }));
  agree.addEventListener("click", () => send({ action: "agree" }));
  reverse.addEventListener("click", () => send({ action: "reverse" }));

  function render() {
    if (!msg) return;
    const { view, controls: c, table } = msg;
    const mine = !!c;
    moves.hidden = !mine;
    if (table.status !== "playing") {
      status.textContent = table.status === "waiting" ? _("The game starts when every seat is taken.") : _("The game is over.");
    } else if (view.seat === null || view.seat === undefined) {
      status.textContent = _("You are watching: every feather stays hidden from you.");
    } else if (mine) {
      status.textContent = _("Your move: guess higher, or dispute the standing guess.");
    } else if (view.to_move === null) {
      status.textContent = _("The feathers are being dealt…");
    } else {
      status.textContent = _("Waiting for {name}…", { name: ctx.name(view.to_move) });
    }
    status.className = mine ? "pw-wait yours" : "pw-wait";
    if (!mine) return;
    if (msg.at !== lastAt) {
      // a new turn: start from the lowest legal guess, no extra feather
      lastAt = msg.at;
      const opening = view.guess === null && c.guess && c.guess.min <= 0 && c.guess.max >= 0;
      input.value = c.guess ? String(opening ? 0 : c.guess.min) : "";
      error.textContent = "";
      drawExtra(c);
    }
    input.min = c.guess ? c.guess.min : "";
    input.max = c.guess ? c.guess.max : "";
    input.disabled = busy || !c.guess;
    dispute.disabled = busy || !c.dispute;
    dispute.textContent = view.guess === null ? _("Dispute") : view.owner === view.seat ? _("Dispute your {guess}", { guess: view.guess }) : _("Dispute {name}’s {guess}", { name: ctx.name(view.owner), guess: view.guess });
    dispute.title = c.dispute ? _("The feathers are counted: if the total is lower than the guess, its owner takes a buzzard; otherwise you do.") : _("There is no guess to dispute yet.");
    const tomahawks = view.options.tomahawks;
    agree.hidden = !tomahawks;
    reverse.hidden = !tomahawks;
    agree.disabled = busy || !c.agree;
    reverse.disabled = busy || !c.reverse;
    agree.textContent = view.guess === null ? _("Agree (tomahawk)") : _("Agree with {guess} (tomahawk)", { guess: view.guess });
    reverse.textContent = _("Reverse direction (tomahawk)");
    const spent = tomahawks && !view.tomahawks[view.seat];
    agree.title = c.agree ? _("Take over the standing guess: you become its owner.") : spent ? _("Your tomahawk is spent this round.") : _("No guess to agree with, or it was already agreed with.");
    reverse.title = c.reverse ? _("Play turns the other way; the owner of the guess is skipped.") : _("Your tomahawk is spent this round.");
    extraBox.hidden = !tomahawks;
    extraBox.querySelectorAll("input").forEach((r) => { r.disabled = busy || (r.value !== "" && !c.extra_feather_to.includes(Number(r.value))); });
    refreshGuess();
  }

  function drawExtra(c) {
    const choices = [el("legend", {}, _("Throw your tomahawk: an extra feather for"))];
    const radio = (value, text, checked, disabled) => {
      const id = `extra-${value === "" ? "none" : value}`;
      return el("label", { class: "radio", for: id },
        el("input", { type: "radio", name: "extra", id, value, checked, disabled, onchange: refreshGuess }), text);
    };
    choices.push(radio("", "nobody", true, false));
    for (let s = 0; s < msg.view.players; s++) {
      if (s === msg.view.seat || msg.view.out.includes(s)) continue;
      const ok = c.extra_feather_to.includes(s);
      choices.push(radio(String(s), ok ? ctx.name(s) : _("{name} (has two)", { name: ctx.name(s) }), false, !ok));
    }
    if (!c.extra_feather_to.length) choices.push(el("p", { class: "muted small" }, msg.view.tomahawks[msg.view.seat] ? _("Nobody can take an extra feather now.") : _("Your tomahawk is spent this round.")));
    extraBox.replaceChildren(...choices);
  }

  return {
    update(next) {
      msg = next;
      render();
    },
  };
}

// --- the count after a dispute -------------------------------------------------------------------
function lastRoundExtras(view) {
  // the same figures the server sends, for re-opening an older count
  const r = view.rounds[view.rounds.length - 1];
  const inPlay = r.worn.flat().concat(r.turned_over ? [r.turned_over] : []);
  const greens = inPlay.filter((f) => GREEN.has(f)).map(Number);
  let removed = null;
  if (inPlay.includes("max0") && greens.length) {
    const top = Math.max(...greens);
    greens.splice(greens.indexOf(top), 1);
    removed = String(top);
  }
  const doubled = inPlay.includes("x2");
  const green = greens.reduce((a, b) => a + b, 0) * (doubled ? 2 : 1);
  return { round: view.rounds.length, removed, doubled, green_sum: green, others: r.total - green, max0: inPlay.includes("max0") };
}

function revealLength(round) {
  return 1200 + round.worn.filter((w) => w.length).length * 250 + 4 * 900;
}

function showReveal(stage, view, figures, ctx, { quick = false } = {}) {
  stage.querySelectorAll(".pw-reveal").forEach((n) => n.remove());
  const round = view.rounds[view.rounds.length - 1];
  figures = figures || lastRoundExtras(view);
  let delay = 0;
  const step = quick ? 0.12 : 0.9;
  const next = () => { delay += step; return `${delay.toFixed(2)}s`; };
  const rows = [];
  let removedShown = false;
  round.worn.forEach((worn, s) => {
    if (!worn.length) return;
    const feathers = worn.map((code) => {
      const struck = !removedShown && figures.removed !== null && code === figures.removed && isTopGreen(round, code);
      if (struck) removedShown = true;
      const f = feather(code, { size: 1, flip: true, struck });
      f.style.animationDelay = `${(delay + 0.15 * rows.length).toFixed(2)}s`;
      return f;
    });
    rows.push(el("div", { class: "reveal-row" }, el("span", { class: "who" }, ctx.name(s)), el("span", { class: "worn" }, feathers)));
  });
  delay += 0.15 * rows.length;
  const steps = [];
  const say = (text, cls = "") => {
    const item = el("li", { class: `reveal-step ${cls}` }, text);
    item.style.animationDelay = next();
    steps.push(item);
  };
  if (round.turned_over) {
    const f = feather(round.turned_over, { size: 0.6, flip: true, struck: !removedShown && figures.removed === round.turned_over });
    const item = el("li", { class: "reveal-step" }, _("The ? feather turns over the top of the stack: "), f);
    item.style.animationDelay = next();
    steps.push(item);
  }
  if (figures.max0) say(figures.removed === null ? _("max=0: there is no green feather to remove.") : _("max=0 removes the highest green feather, a {value}.", { value: figures.removed }));
  if (figures.doubled) say(_("×2 doubles the green feathers: {sum}.", { sum: figures.green_sum }));
  const reached = round.total >= round.guess;
  say(figures.others
    ? _("Total {total} (greens {greens}, others {others}) against the guess {guess}.", { total: round.total, greens: figures.green_sum, others: `${figures.others > 0 ? "+" : ""}${figures.others}`, guess: round.guess })
    : _("Total {total} (greens {greens}) against the guess {guess}.", { total: round.total, greens: figures.green_sum, guess: round.guess }), "total");
  const loser = ctx.name(round.loser);
  const why = reached
    ? _("The total reaches the guess, so {name} disputed wrongly.", { name: ctx.name(round.disputer) })
    : round.owner === view.seat ? _("The total falls short, so your guess was too high.") : _("The total falls short, so {name}’s guess was too high.", { name: ctx.name(round.owner) });
  const takes = round.loser === view.seat ? _("You take a buzzard.") : _("{name} takes a buzzard.", { name: loser });
  say(`${why} ${takes}`, "verdict");
  if (view.out.includes(round.loser) && view.buzzards[round.loser] >= view.options.buzzards) {
    say(round.loser === view.seat ? _("You are out of the game.") : _("{name} is out of the game.", { name: loser }), "verdict");
  }
  const guessed = _("guess {value}", { value: round.guess });
  const panel = el("section", { class: "pw-reveal", role: "dialog", "aria-label": _("The count of round {round}", { round: figures.round }) },
    el("div", { class: "reveal-body" },
      el("h2", {}, _("Round {round}: {name} disputed {guess}", { round: figures.round, name: ctx.name(round.disputer), guess: ctx.possessive(round.owner, guessed) })),
      el("div", { class: "reveal-rows" }, rows),
      el("ol", { class: "reveal-steps" }, steps)));
  if (ctx.present) {
    // the table page: in view between the header and the moves, until Continue
    ctx.present(panel, { linger: (delay + 6) * 1000, quick });
    return;
  }
  const close = el("button", { type: "button", class: "primary", onclick: () => panel.remove() }, _("Continue"));
  panel.append(el("div", { class: "reveal-close" }, close));
  panel.addEventListener("keydown", (e) => { if (e.key === "Escape") panel.remove(); });
  stage.append(panel);
}

function isTopGreen(round, code) {
  const inPlay = round.worn.flat().concat(round.turned_over ? [round.turned_over] : []);
  const greens = inPlay.filter((f) => GREEN.has(f)).map(Number);
  return greens.length && Number(code) === Math.max(...greens);
}

function summary(msg, ctx) {
  if (!msg) return null;
  const view = msg.view;
  const rows = [];
  for (let s = 0; s < view.players; s++) {
    rows.push(el("tr", {}, el("td", {}, ctx.name(s)), el("td", {}, String(view.buzzards[s])), el("td", {}, view.winners.includes(s) ? _("★ winner") : view.out.includes(s) ? _("out") : "")));
  }
  return el("table", { class: "summary" },
    el("caption", {}, ngettext("{n} round played", "{n} rounds played", view.rounds.length)),
    el("thead", {}, el("tr", {}, el("th", {}, _("Player")), el("th", {}, _("Buzzards")), el("th", {}, ""))),
    el("tbody", {}, rows));
}
