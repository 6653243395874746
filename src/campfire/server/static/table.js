// The table page: one WebSocket per seat, the shared frame (whose turn, log, rules, end screen),
// and the game's own module (loaded from /games/<game>/table.js) that draws the board.
import {
  api, el, forgetSeat, logo, nameText, possessiveName, ratingText, refusalBox, saveName, saveSeat, saveSetting, savedName, savedSeat,
  seatName, seatRatings, setting, toast,
} from "/static/common.js";
import { statsTable } from "/static/review.js";
import { _, lang, ngettext, pgettext } from "/static/i18n.js";

const tableId = location.pathname.split("/").filter(Boolean).pop();
const $ = (id) => document.getElementById(id);

const page = {
  seat: savedSeat(tableId), // {seat, token} when this browser sits at the table
  table: null, // the latest table summary (seats, status, ...)
  msg: null, // the latest update (view, controls, extras)
  board: null,
  ws: null,
  retry: 0,
  restarts: 0, // reconnects in a row after a "service restart" close (1012), made at once
  pending: new Map(),
  nextId: 1,
  endShown: false,
  stopped: false,
  metaAt: 0, // performance.now() when the latest table summary arrived (away times count from it)
  helloToken: null, // the token this socket's hello gave (null: it watches)
  seen: null, // {token, at}: the last update, and as whom it came (a reconnect asks for what followed)
  toolsTimer: null,
};

const you = () => (page.seat ? page.seat.seat : null);

const ctx = {
  get you() { return you(); },
  get table() { return page.table; },
  name: (seat) => seatName(page.table, seat, you()),
  plainName: (seat) => seatName(page.table, seat, null),
  possessive: (seat, thing) => possessiveName(page.table, seat, you(), thing),
  names: (text) => nameText(text, page.table, you()),
  /** the rating beside a signed-in player's name (null: a guest or a bot) */
  rating: (seat) => ratingText(page.ratings, page.table && page.table.id, seat),
  act,
  toast,
  present,
};

// --- start ---------------------------------------------------------------------------------------
async function start() {
  $("brand-logo").append(logo(26));
  $("rules-btn").addEventListener("click", openRules);
  $("invite-btn").addEventListener("click", openInvite);
  $("invite-copy").addEventListener("click", copyInvite);
  document.addEventListener("keydown", (event) => {
    if (event.key === "?" && !isTyping(event.target)) openRules();
  });
  measure();
  alerts();
  hints();
  chatSetup();
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      if (page.msg) page.board.update(page.msg, { newEvents: [], metaOnly: true });
    }, 150);
  });
  let table;
  try {
    table = await api(`/api/tables/${tableId}`);
  } catch (error) {
    $("title").textContent = _("No such table");
    $("stage").append(el("div", { class: "notice" },
      el("p", {}, error.message), el("p", {}, el("a", { href: "/" }, _("Back to the lobby")))));
    $("conn").textContent = "";
    return;
  }
  page.table = table;
  if (!page.seat) await accountSeat();
  await loadRatings(table);
  $("title").textContent = table.title;
  document.title = `${table.title} — Campfire`;
  await loadGame(table);
  connect();
}

/** The ratings beside the names, fetched again when someone else sits down. */
async function loadRatings(table) {
  const who = table.seats.map((s) => `${s.kind}:${s.name || ""}`).join("|");
  if (page.ratingsFor === who) return false;
  page.ratingsFor = who;
  page.ratings = await seatRatings([table.id]);
  return true;
}

function ratingsChanged(table) {
  loadRatings(table).then((changed) => {
    if (changed && page.msg) page.board.update(page.msg, { newEvents: [], metaOnly: true });
    if (changed) frame();
  });
}

function isTyping(target) {
  return target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT");
}

async function loadGame(table) {
  let module;
  if (table.has_page) {
    $("game-css").setAttribute("href", `/games/${table.game}/table.css`);
    module = await import(`/games/${table.game}/table.js`);
  } else {
    module = await import("/static/generic.js");
  }
  page.board = module.createBoard({ stage: $("stage"), controls: $("controls"), side: $("side"), ctx });
}

// --- keeping the moves in view ------------------------------------------------------------------
/** The header and the moves bar stick to the screen: reveals open in the space between them. */
function measure() {
  const root = document.body.style;
  const set = () => {
    root.setProperty("--head-h", `${Math.ceil($("sticky-head").getBoundingClientRect().height)}px`);
    root.setProperty("--controls-h", `${Math.ceil($("controls").getBoundingClientRect().height)}px`);
  };
  set();
  if (window.ResizeObserver) {
    const watcher = new ResizeObserver(set);
    watcher.observe($("sticky-head"));
    watcher.observe($("controls"));
  }
}

/** Show a reveal or a count in view; it waits for Continue unless this browser asked to go on by itself. */
function present(panel, { linger = 6000, quick = false } = {}) {
  document.querySelectorAll(".reveal-panel").forEach((n) => n.remove());
  panel.classList.add("reveal-panel");
  const close = () => {
    panel.remove();
    clearTimeout(timer);
  };
  const auto = el("input", { type: "checkbox", id: "auto-continue", checked: setting("auto-continue", false) });
  auto.addEventListener("change", () => saveSetting("auto-continue", auto.checked));
  const row = el("div", { class: "reveal-close" },
    el("label", { class: "check", for: "auto-continue" }, auto, _("Continue by itself")),
    el("button", { type: "button", class: "primary", id: "continue-btn", onclick: close }, "Continue"));
  panel.append(row);
  panel.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
  $("stage").append(panel);
  const timer = !quick && setting("auto-continue", false) ? setTimeout(close, linger) : null;
  return panel;
}

// --- your turn: a sound, a notification when the tab is hidden, the marker in the tab title -----
function alerts() {
  const button = $("sound-btn");
  const show = () => {
    const on = setting("sound", true);
    button.textContent = on ? "♪ on" : "♪ off";
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.setAttribute("aria-label", on ? _("Sound on when it is your turn (turn it off)") : _("Sound off (turn it on)"));
    button.title = button.getAttribute("aria-label");
  };
  button.addEventListener("click", () => {
    saveSetting("sound", !setting("sound", true));
    show();
    if (setting("sound", true)) beep();
  });
  button.hidden = false;
  show();
  // browsers start sound only after a gesture: open the audio on the first one
  const unlock = () => {
    audio();
    window.removeEventListener("pointerdown", unlock);
    window.removeEventListener("keydown", unlock);
  };
  window.addEventListener("pointerdown", unlock);
  window.addEventListener("keydown", unlock);
}

function audio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!page.audio) page.audio = new Context();
  if (page.audio.state === "suspended") page.audio.resume().catch(() => {});
  return page.audio;
}

/** Two short soft notes made on the spot (no sound file to fetch). */
function beep() {
  const context = audio();
  if (!context) return;
  const now = context.currentTime;
  [660, 880].forEach((freq, i) => {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    const start = now + i * 0.14;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.13);
    osc.connect(gain).connect(context.destination);
    osc.start(start);
    osc.stop(start + 0.14);
  });
}

function askToNotify() {
  if (page.asked || !("Notification" in window) || Notification.permission !== "default") return;
  page.asked = true;
  try {
    const asked = Notification.requestPermission();
    if (asked && asked.catch) asked.catch(() => {});
  } catch {
    // an old browser without the promise form: no notifications then
  }
}

function yourTurn() {
  if (page.seat === null) return;
  if (setting("sound", true)) beep();
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    try {
      const note = new Notification(_("Your turn — {title}", { title: page.table.title }), { body: _("The table is waiting for your move."), tag: `campfire-${tableId}` });
      note.addEventListener("click", () => { window.focus(); note.close(); });
    } catch {
      // some browsers only notify from a service worker: the title marker still shows
    }
  }
}

// --- the turn clock ------------------------------------------------------------------------------
/** The time left for the seat whose clock runs, counted down here between updates. */
function clock() {
  const node = $("clock");
  clearTimeout(page.clockTimer);
  const c = page.table && page.table.clock;
  if (!c || c.deadline === null || c.deadline === undefined || c.seat === null || c.seat === undefined || page.table.status !== "playing") {
    node.hidden = true;
    node.textContent = "";
    return;
  }
  const left = Math.max(0, c.deadline - Date.now() / 1000);
  const mine = c.seat === you();
  const who = mine ? "you" : ctx.plainName(c.seat);
  node.textContent = left > 0 ? `◷ ${clockText(left)} · ${who}` : _("◷ time is up · {name}", { name: who });
  node.setAttribute("aria-label", left > 0 ? _("{time} left for {name} to move", { time: clockText(left), name: who }) : _("time is up for {name}", { name: who }));
  node.className = `clock${mine ? " mine" : ""}${left < 10 ? " low" : ""}`;
  node.hidden = false;
  if (left > 0) page.clockTimer = setTimeout(clock, left > 7200 ? 60000 : 1000 - (Date.now() % 1000) + 20);
}

function clockText(seconds) {
  const s = Math.ceil(seconds);
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// --- table talk ----------------------------------------------------------------------------------
// the quick messages by their key: each reader sees them in their own language (the server
// sends every connection the words of its language)
const EMOTES = { nice: _("Nice one!"), wow: _("Wow"), hmm: _("Hmm…"), haha: _("Ha ha"), bluff: _("Bluff!"), gg: _("Good game") };
const MUTE_KEY = () => `campfire:mute:${tableId}`;

function muted() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTE_KEY()) || "[]"));
  } catch {
    return new Set();
  }
}

function setMuted(seat, on) {
  const seats = muted();
  if (on) seats.add(seat);
  else seats.delete(seat);
  try {
    localStorage.setItem(MUTE_KEY(), JSON.stringify([...seats]));
  } catch {
    // storage refused: the mute lasts for this page
  }
  redrawChat();
}

function chatSetup() {
  page.chat = [];
  $("chat").hidden = false;
  $("chat-btn").hidden = false;
  $("chat-emotes").replaceChildren(...Object.entries(EMOTES).map(([key, text]) => el("button", { type: "button", class: "ghost", onclick: () => emote(key) }, text)));
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("chat-text").value.trim();
    if (text) say(text, true);
  });
  $("chat-btn").addEventListener("click", () => openChat(!document.body.classList.contains("chat-open")));
  $("chat-close").addEventListener("click", () => openChat(false));
  chatEmpty();
}

function openChat(open) {
  document.body.classList.toggle("chat-open", open);
  $("chat-btn").setAttribute("aria-expanded", open ? "true" : "false");
  if (open) {
    $("chat-unread").hidden = true;
    $("chat-text").focus();
  }
}

/** Send a quick message: its key, which each reader's page shows in their language. */
function emote(key) {
  if (!page.ws || page.ws.readyState !== WebSocket.OPEN) {
    toast(_("not connected to the server; trying again…"));
    return;
  }
  const id = page.nextId++;
  page.pending.set(id, { resolve: () => {}, reject: (error) => toast(error.message) });
  page.ws.send(JSON.stringify({ type: "chat", id, emote: key }));
}

/** Send a chat line; a line typed in the input leaves it only once the server took it (a
 * refused one, too long or too many at once, stays there to send again). */
function say(text, typed = false) {
  if (!page.ws || page.ws.readyState !== WebSocket.OPEN) {
    toast(_("not connected to the server; trying again…"));
    return;
  }
  const id = page.nextId++;
  const input = $("chat-text");
  page.pending.set(id, {
    resolve: () => { if (typed && input.value.trim() === text) input.value = ""; },
    reject: (error) => toast(error.message),
  });
  page.ws.send(JSON.stringify({ type: "chat", id, text }));
}

function chatEmpty() {
  const log = $("chat-log");
  if (!log.childElementCount) log.append(el("li", { class: "empty" }, _("No messages yet. Say hello, or send a quick message.")));
}

function chatLine(m) {
  const seat = typeof m.seat === "number" ? m.seat : null;
  let who;
  if (seat !== null && seat === you()) who = pgettext("chat", "you");
  else if (seat !== null && page.table && seat < page.table.seats.length) who = ctx.plainName(seat);
  else {
    const someone = pgettext("chat", "someone");
    who = _("{name} (watching)", { name: m.name && m.name !== "Spectator" ? m.name : someone });
  }
  const when = typeof m.at === "number" ? new Date(m.at * 1000).toLocaleTimeString(lang === "xx" ? "en" : lang, { hour: "2-digit", minute: "2-digit" }) : "";
  // text only: the message is a text node, never parsed as HTML
  return el("li", { dataset: { seat: seat === null ? "" : String(seat) }, title: when },
    el("span", { class: `who${seat === null ? " watcher" : ""}` }, `${who}:`), String(m.text || ""));
}

function addChat(m, { quiet = false } = {}) {
  if (!m || typeof m.text !== "string") return;
  page.chat.push(m);
  if (page.chat.length > 300) page.chat.shift();
  const seat = typeof m.seat === "number" ? m.seat : null;
  if (seat !== null && muted().has(seat)) return;
  const log = $("chat-log");
  log.querySelectorAll(".empty").forEach((n) => n.remove());
  log.append(chatLine(m));
  while (log.childElementCount > 300) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
  if (!quiet && !document.body.classList.contains("chat-open") && seat !== you()) $("chat-unread").hidden = false;
}

function redrawChat() {
  const skip = muted();
  const log = $("chat-log");
  log.replaceChildren(...page.chat.filter((m) => !(typeof m.seat === "number" && skip.has(m.seat))).map(chatLine));
  chatEmpty();
  log.scrollTop = log.scrollHeight;
}

/** A mute per seat, kept in this browser only: the others still see what that player says. */
function muteList() {
  const table = page.table;
  const box = $("chat-mute-list");
  const skip = muted();
  const others = table.seats.filter((s) => s.seat !== you() && s.kind === "human" && s.taken);
  box.replaceChildren(...(others.length ? others.map((s) => el("label", { class: "check", for: `mute-${s.seat}` },
    el("input", { type: "checkbox", id: `mute-${s.seat}`, checked: skip.has(s.seat), onchange: (e) => setMuted(s.seat, e.target.checked) }),
    _("Mute {name}", { name: ctx.plainName(s.seat) }))) : [el("p", { class: "muted small" }, _("No other player to mute."))]));
}

// --- connection ----------------------------------------------------------------------------------
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}`);
  page.ws = ws;
  setConn(_("connecting…"), "wait");
  ws.addEventListener("open", () => {
    const token = page.seat ? page.seat.token : null;
    // back as the same seat (or the same spectator): only what was missed comes, not it all
    const at = page.seen && page.seen.token === token ? page.seen.at : null;
    page.helloToken = token;
    ws.send(JSON.stringify({ type: "hello", token, at }));
  });
  ws.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    receive(message);
  });
  ws.addEventListener("close", (event) => {
    if (page.ws !== ws) return;
    for (const [, waiter] of page.pending) waiter.reject(new Error(_("the connection dropped; your move may not have been sent")));
    page.pending.clear();
    if (page.stopped) return;
    // 1012: the server restarts and handed this table over; come back at once (the proxy
    // picks another process). Otherwise jittered, so the sockets of a server that went away
    // do not all come back in step
    const restart = event.code === 1012 && page.restarts < 3;
    page.restarts = restart ? page.restarts + 1 : 0;
    const delay = restart ? 0 : Math.min(8000, 400 * 2 ** page.retry) * (0.5 + Math.random());
    if (!restart) page.retry += 1;
    setConn(_("reconnecting…"), "wait");
    setTimeout(connect, delay);
  });
}

function setConn(text, kind) {
  const node = $("conn");
  node.textContent = text;
  node.className = `conn conn-${kind}`;
}

function receive(message) {
  if (message.type === "update") {
    page.retry = 0;
    page.restarts = 0;
    setConn(page.seat ? _("live") : _("watching"), "ok");
    update(message);
  } else if (message.type === "table") {
    page.table = message.table;
    ratingsChanged(message.table);
    page.metaAt = performance.now();
    if (page.msg) {
      page.msg.table = message.table;
      page.board.update(page.msg, { newEvents: [], metaOnly: true });
    }
    frame();
  } else if (message.type === "chat") {
    addChat(message);
  } else if (message.type === "chat_history") {
    // the server's own limit on a line: one number, the server's
    if (Number.isInteger(message.length)) $("chat-text").maxLength = message.length;
    $("chat-log").replaceChildren();
    page.chat = [];
    for (const line of message.messages || []) addChat(line, { quiet: true });
    chatEmpty();
  } else if (message.type === "seat" && message.seat === null && page.seat) {
    // a bot plays this browser's seat now; the server already treats this socket as a spectator
    page.helloToken = null;
    // (when the clock took it, the old token takes it back: keep it for that, and Play again)
    if (message.reclaim) keepLost(page.seat);
    if (message.removed) keepRemoved();
    leftSeat(message.reason);
  } else if (message.type === "ok") {
    const waiter = page.pending.get(message.id);
    if (waiter) { page.pending.delete(message.id); waiter.resolve(); }
  } else if (message.type === "error") {
    const waiter = page.pending.get(message.id);
    if (waiter) {
      page.pending.delete(message.id);
      waiter.reject(new Error(message.reason));
    } else if (message.fatal && message.status === 403 && page.seat) {
      // the seat token is not valid here (a bot took the seat over, a wiped database): watch
      if ((message.key || "").startsWith("the host removed")) keepRemoved();
      forgetSeat(tableId);
      page.seat = null;
      toast(_("{reason}. You are watching.", { reason: message.reason }));
      page.ws.close();
    } else if (message.fatal && message.status === 429) {
      page.stopped = true;
      setConn(_("not connected"), "bad");
      crowded(message);
    } else if (message.fatal) {
      page.stopped = true;
      setConn(_("closed"), "bad");
      toast(message.reason);
    } else {
      toast(message.reason);
    }
  }
}

/** The socket was refused for a crowd (429: too many watchers here, or from this address): a
 * panel that stays, says what to do, and connects again when asked. */
function crowded(message) {
  $("refusal")?.remove();
  const again = el("button", { type: "button", class: "primary", id: "retry-btn" }, _("Try again"));
  const box = refusalBox({
    heading: page.seat ? _("Your seat could not connect just now") : _("You cannot watch this table just now"),
    reason: message.reason,
    advice: _("Players with a seat always get in; watchers are limited at each table and from each address. Close another tab that watches this table, or try again in a little while."),
    retryAfter: Number.isFinite(message.retry_after) ? message.retry_after : null,
    actions: [again, el("a", { class: "button", href: "/" }, _("Back to the lobby"))],
  });
  box.id = "refusal";
  // nothing to play or invite to from here: only the way back in
  $("controls").hidden = true;
  $("invite-btn").hidden = true;
  again.addEventListener("click", () => {
    box.remove();
    $("controls").hidden = false;
    page.stopped = false;
    page.retry = 0;
    connect();
  });
  $("stage").prepend(box);
  box.scrollIntoView({ block: "nearest" });
}

function update(message) {
  const before = page.msg;
  page.msg = message;
  page.seen = { token: page.helloToken, at: message.at };
  page.table = message.table;
  ratingsChanged(message.table);
  page.metaAt = performance.now();
  if (message.full) $("log").replaceChildren();
  addLog(message.events);
  page.board.update(message, { newEvents: message.full ? [] : message.events, full: message.full, before });
  frame();
  showHint();
}

// --- the coach's hint: off by default, asked for on your turn, shown to you only -----------------
function hints() {
  const button = $("hint-btn");
  const show = () => {
    const on = setting("hint", false);
    button.textContent = on ? _("Hint on") : _("Hint off");
    button.setAttribute("aria-pressed", on ? "true" : "false");
  };
  button.addEventListener("click", () => {
    saveSetting("hint", !setting("hint", false));
    show();
    showHint();
  });
  show();
}

async function showHint() {
  const node = $("hint");
  const msg = page.msg;
  const offered = page.table && page.table.game === "powwow" && page.seat;
  $("hint-btn").hidden = !offered;
  if (!offered || !setting("hint", false) || !msg || !msg.controls) {
    node.hidden = true;
    return;
  }
  try {
    const answer = await api(`/api/tables/${tableId}/coach`, { token: page.seat.token });
    if (page.msg !== msg) return; // the table moved on meanwhile
    const read = answer.coach.read;
    const rows = read ? read.at_least : answer.coach.at_least;
    const mid = rows[Math.floor(rows.length / 2)];
    const blind = answer.coach.at_least.find((r) => r.guess === mid.guess);
    const pct = (p) => `${Math.round(p * 100)}%`;
    node.textContent = read
      ? _("Hint: a total of {guess} or more — {seen} by what you see, {read} reading the bids", { guess: mid.guess, seen: pct(blind ? blind.p : 0), read: pct(mid.p) })
      : _("Hint: a total of {guess} or more — {odds}", { guess: mid.guess, odds: pct(mid.p) });
    node.hidden = false;
  } catch (error) {
    node.hidden = true;
  }
}

/** Send an action; resolves when the server applied it, rejects with the server's reason. */
function act(action) {
  askToNotify(); // a move is a user gesture: the one moment a browser lets a page ask
  return new Promise((resolve, reject) => {
    if (!page.ws || page.ws.readyState !== WebSocket.OPEN) {
      reject(new Error(_("not connected to the server; trying again…")));
      return;
    }
    const id = page.nextId++;
    page.pending.set(id, { resolve, reject });
    page.ws.send(JSON.stringify({ type: "act", id, action, at: page.msg ? page.msg.at : null }));
    setTimeout(() => {
      if (page.pending.has(id)) {
        page.pending.delete(id);
        reject(new Error(_("the server did not answer in time")));
      }
    }, 15000);
  });
}

// --- the frame around the board ------------------------------------------------------------------
function addLog(events) {
  const log = $("log");
  for (const event of events) {
    if (!event.text) continue;
    const item = el("li", { class: `log-${event.kind}` }, ctx.names(event.text));
    log.append(item);
  }
  const box = log.parentElement;
  box.scrollTop = box.scrollHeight;
}

function frame() {
  const table = page.table;
  const banner = $("banner");
  const me = you();
  let text;
  let kind = "info";
  if (table.status === "waiting") {
    const taken = table.seats.filter((s) => s.taken).length;
    text = ngettext("Waiting for players: {taken} of {n} seat taken.", "Waiting for players: {taken} of {n} seats taken.", table.players, { taken });
  } else if (table.status === "finished") {
    const won = me !== null && table.winners.includes(me);
    const others = table.winners.filter((s) => s !== me).map((s) => ctx.plainName(s));
    text = won
      ? (others.length ? _("Game over: you share the win with {names}!", { names: others.join(_(" and ")) }) : _("Game over: you win!"))
      : ngettext("Game over: {names} wins.", "Game over: {names} win.", others.length, { names: others.join(_(" and ")) });
    kind = "end";
  } else if (table.to_move === null || table.to_move === undefined) {
    text = _("Dealing…");
  } else if (table.to_move === me) {
    text = _("Your turn");
    kind = "you";
  } else {
    const seat = table.seats[table.to_move];
    text = seat.kind === "bot" ? _("{name} is thinking…", { name: ctx.name(table.to_move) }) : _("Waiting for {name}", { name: ctx.name(table.to_move) });
    if (seat.kind !== "bot" && !seat.online) text += _(" (not connected)");
  }
  banner.textContent = text;
  banner.className = `banner banner-${kind}`;
  // for scripts and tests: where the table is, and whether it waits for this browser
  document.body.dataset.status = table.status;
  document.body.dataset.at = String(page.msg ? page.msg.at : 0);
  document.body.dataset.turn = kind === "you" ? "you" : "";
  const prefix = kind === "you" ? _("▶ Your turn · ") : "";
  document.title = `${prefix}${table.title} — Campfire`;
  if (kind === "you" && !page.wasYourTurn) yourTurn();
  page.wasYourTurn = kind === "you";
  // only someone at the table invites: a visitor without a seat is offered the seat itself
  $("invite-btn").hidden = table.status !== "waiting" || !page.seat;
  clock();
  muteList();
  waitingRoom();
  seatTools();
  if (table.status === "finished" && !page.endShown) {
    page.endShown = true;
    // let the last reveal play before the end screen covers it
    setTimeout(showEnd, page.board.endDelay ? page.board.endDelay() : 0);
  } else if (table.status === "finished" && $("end-dialog").open) {
    fillEnd();
  }
}

// --- waiting for players, joining ----------------------------------------------------------------
function waitingRoom() {
  const table = page.table;
  let room = $("waiting");
  if (table.status !== "waiting" && !(page.seat === null && table.status !== "finished" && table.seats.some((s) => !s.taken))) {
    if (room) room.remove();
    return;
  }
  const focused = room && room.contains(document.activeElement) ? document.activeElement.id : null;
  const typed = room && $("join-name") ? $("join-name").value : null;
  if (!room) {
    room = el("section", { id: "waiting", class: "waiting", "aria-label": _("Waiting room") });
    $("stage").append(room);
  }
  const free = table.seats.filter((s) => !s.taken);
  const hosting = page.seat && table.host === you() && table.status === "waiting";
  const seats = el("ul", { class: "seat-list" }, table.seats.map((s) => el("li", { class: s.taken ? "taken" : "free" },
    el("span", { class: "seat-no" }, _("Seat {seat}", { seat: s.seat })),
    el("span", {}, s.kind === "bot" ? `${s.name} · ${_("{level} bot", { level: pgettext("level", s.level) })}` : s.taken ? (s.seat === you() ? _("{name} (you)", { name: s.name }) : s.name) : _("free")),
    ctx.rating(s.seat) ? el("span", { class: "seat-rating" }, ctx.rating(s.seat)) : null,
    s.kind === "human" && s.taken ? el("span", { class: s.online ? "dot on" : "dot", title: s.online ? _("connected") : _("not connected") }) : null,
    hosting && s.kind === "human" && s.taken && s.seat !== you()
      ? el("button", { type: "button", class: "ghost small", id: `remove-seat-${s.seat}`, onclick: (event) => removeSeat(s, event.target) }, _("Remove"))
      : null,
  )));
  const parts = [el("h2", {}, _("Waiting for players")), seats];
  if (page.seat) {
    parts.push(el("p", {}, _("You sit at seat {seat}. The game starts when every seat is taken.", { seat: page.seat.seat })));
    parts.push(inviteRow());
    if (table.host === you()) {
      parts.push(el("button", { type: "button", class: "ghost small", id: "cancel-table-btn", onclick: (event) => cancelTable(event.target) }, _("Cancel this table")));
    }
  } else if (wasRemoved()) {
    parts.push(el("p", { id: "removed-note" }, _("The host removed you from this table: you can watch, not sit.")));
  } else if (free.length) {
    parts.push(joinForm(free));
  }
  room.replaceChildren(...parts);
  if (typed !== null && $("join-name")) $("join-name").value = typed;
  if (focused && $(focused)) $(focused).focus();
}

async function removeSeat(seat, button) {
  if (!confirm(_("Send {name} away from this table? They cannot sit here again.", { name: seat.name }))) return;
  button.disabled = true;
  try {
    await api(`/api/tables/${tableId}/seats/${seat.seat}/remove`, { method: "POST", token: page.seat.token });
  } catch (error) {
    toast(error.message);
    button.disabled = false;
  }
}

/** The host removed this browser from the table: it is not offered a seat there again. */
function keepRemoved() {
  localStorage.setItem(`campfire:removed:${tableId}`, "1");
}

function wasRemoved() {
  return localStorage.getItem(`campfire:removed:${tableId}`) === "1";
}

async function cancelTable(button) {
  if (!confirm(_("Cancel this table? Everyone waiting here is sent away."))) return;
  button.disabled = true;
  try {
    await api(`/api/tables/${tableId}/cancel`, { method: "POST", token: page.seat.token });
    page.stopped = true;
    forgetSeat(tableId);
    location.assign("/");
  } catch (error) {
    toast(error.message);
    button.disabled = false;
  }
}

function inviteRow() {
  const url = `${location.origin}/t/${tableId}`;
  return el("div", { class: "copy-row" },
    el("input", { readonly: true, value: url, "aria-label": _("Invite link"), id: "room-invite" }),
    el("button", { type: "button", onclick: () => copy(url) }, _("Copy invite link")));
}

/** A signed-in player's seat on a device that holds no token for it (another device, or a
 * cleared browser): the server hands this device a token for the account's seat. */
async function accountSeat() {
  try {
    const session = await api("/api/session");
    if (!session.name || !session.tables.some((t) => t.id === tableId)) return;
    const got = await api(`/api/tables/${tableId}/seat`, { method: "POST" });
    saveSeat(tableId, got.seat, got.token);
    page.seat = { seat: got.seat, token: got.token };
    page.table = got.table;
  } catch {
    // a guest, or the seat is a bot's now: watch as before
  }
}

function joinForm(free) {
  const form = el("form", { class: "join-form", id: "join-form" },
    el("h3", {}, _("Take a seat")),
    el("label", { for: "join-name" }, _("Your name")),
    el("input", { id: "join-name", name: "name", required: true, maxlength: 24, autocomplete: "nickname", value: savedName() }),
    el("label", { for: "join-seat" }, _("Seat")),
    el("select", { id: "join-seat", name: "seat" }, free.map((s) => el("option", { value: s.seat }, _("Seat {seat}", { seat: s.seat })))),
    el("div", { class: "row" },
      el("button", { type: "submit", class: "primary", id: "join-btn" }, _("Join the game")),
      el("span", { class: "muted" }, "or just watch from here.")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("join-name").value.trim();
    const seat = Number($("join-seat").value);
    $("join-btn").disabled = true;
    try {
      const joined = await api(`/api/tables/${tableId}/join`, { method: "POST", body: { name, seat } });
      saveName(name);
      saveSeat(tableId, joined.seat, joined.token);
      page.seat = { seat: joined.seat, token: joined.token };
      page.ws.close(); // reconnect as the seat
    } catch (error) {
      toast(error.message);
      $("join-btn").disabled = false;
    }
  });
  return form;
}

// --- letting a bot play a seat -------------------------------------------------------------------
/** Seconds the seat's player has been away now (the summary says how long when it was sent). */
function awayFor(seat) {
  return seat.away ? seat.away_for + (performance.now() - page.metaAt) / 1000 : null;
}

function duration(seconds) {
  const s = Math.floor(seconds);
  return s < 90 ? ngettext("{n} second", "{n} seconds", s) : ngettext("{n} minute", "{n} minutes", Math.floor(s / 60));
}

/** Your own seat can go to a bot any time; another player's once they have been away long enough. */
function seatTools() {
  const box = $("seat-tools");
  const table = page.table;
  const me = you();
  clearTimeout(page.toolsTimer);
  const lost = lostSeat();
  if (me === null && lost && table.status === "playing") {
    box.replaceChildren(el("button", { type: "button", class: "small", id: "reclaim-btn", onclick: (event) => reclaim(lost, event.target) }, _("Take my seat back")));
    box.hidden = false;
    return;
  }
  if (me === null || table.status === "finished") {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const rows = [];
  let soonest = Infinity;
  for (const seat of table.seats) {
    if (seat.seat === me || seat.kind !== "human" || !seat.taken || !seat.away) continue;
    const away = awayFor(seat);
    if (away < table.away_limit) {
      soonest = Math.min(soonest, table.away_limit - away);
      continue;
    }
    rows.push(el("div", { class: "away-row", dataset: { seat: seat.seat } },
      el("span", {}, _("{name} has been away for {time}.", { name: seat.name, time: duration(away) })),
      el("button", { type: "button", class: "small", id: `bot-seat-${seat.seat}`, onclick: (event) => handOver(seat.seat, event.target) }, _("Let a bot play"))));
  }
  const leaving = table.status === "waiting" ? _("Leave — free my seat") : _("Leave — a bot plays on");
  rows.push(el("button", { type: "button", class: "ghost small", id: "leave-btn", onclick: (event) => leave(event.target) }, leaving));
  box.replaceChildren(...rows);
  box.hidden = false;
  // show "Let a bot play" the moment a seat has been away long enough, without waiting for news
  if (soonest < Infinity) page.toolsTimer = setTimeout(seatTools, soonest * 1000 + 50);
}

async function handOver(seat, button) {
  button.disabled = true;
  try {
    await api(`/api/tables/${tableId}/seats/${seat}/bot`, { method: "POST", token: page.seat.token, body: {} });
  } catch (error) {
    toast(error.message);
    button.disabled = false;
  }
}

async function leave(button) {
  const waiting = page.table.status === "waiting";
  const question = waiting
    ? _("Leave this table? Your seat is free again for someone else, and you watch.")
    : _("Leave this table? A bot plays your seat for the rest of the game, and you watch.");
  if (!confirm(question)) return;
  button.disabled = true;
  try {
    await api(`/api/tables/${tableId}/seats/${you()}/bot`, { method: "POST", token: page.seat.token, body: {} });
    leftSeat(waiting ? _("You left: your seat is free again") : _("A bot plays your seat now: you are watching"));
  } catch (error) {
    toast(error.message);
    button.disabled = false;
  }
}

/** The seat the turn clock gave to a bot, kept so its player can take it back or play again. */
function lostSeat() {
  try {
    return JSON.parse(localStorage.getItem(`campfire:lost:${tableId}`) || "null");
  } catch {
    return null;
  }
}

function keepLost(seat) {
  localStorage.setItem(`campfire:lost:${tableId}`, JSON.stringify({ seat: seat.seat, token: seat.token }));
}

async function reclaim(lost, button) {
  button.disabled = true;
  try {
    const back = await api(`/api/tables/${tableId}/reclaim`, { method: "POST", token: lost.token });
    localStorage.removeItem(`campfire:lost:${tableId}`);
    saveSeat(tableId, back.seat, lost.token);
    page.seat = { seat: back.seat, token: lost.token };
    page.ws.close(); // reconnect as the seat
  } catch (error) {
    toast(error.message);
    button.disabled = false;
  }
}

function leftSeat(reason) {
  if (!page.seat) return;
  forgetSeat(tableId);
  page.seat = null;
  toast(reason, "info");
  if (page.table) frame();
}

// --- dialogs -------------------------------------------------------------------------------------
async function openRules() {
  const dialog = $("rules-dialog");
  const body = $("rules-body");
  if (!body.childElementCount && page.table) {
    try {
      const response = await fetch(`/games/${page.table.game}/rules.html`);
      if (!response.ok) throw new Error("no rules page");
      body.innerHTML = await response.text(); // our own file, shipped with the game
      body.append(el("p", {}, el("a", { href: `/rules/${page.table.game}`, target: "_blank" }, _("Open the rules in a new tab"))));
    } catch {
      body.textContent = _("The rules could not be loaded.");
    }
  }
  if (!dialog.open) dialog.showModal();
}

function openInvite() {
  $("invite-url").value = `${location.origin}/t/${tableId}`;
  $("invite-dialog").showModal();
  $("invite-url").select();
}

function copyInvite() {
  copy($("invite-url").value);
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast(_("Invite link copied"), "info");
  } catch {
    toast(_("Copy the link by hand (select it, then copy)"), "info");
  }
}

function showEnd() {
  fillEnd();
  const dialog = $("end-dialog");
  if (!dialog.open) dialog.showModal();
}

function fillEnd() {
  const table = page.table;
  const me = you();
  const winners = table.winners;
  const won = me !== null && winners.includes(me);
  // "You win!" says who won already: the line below names only the others who won with you
  const names = winners.filter((s) => !won || s !== me).map((s) => ctx.plainName(s));
  const buttons = [];
  if (me !== null || lostSeat()) {
    buttons.push(el("button", { type: "button", class: "primary", id: "again-btn", onclick: playAgain }, table.next ? _("Join the next game") : _("Play again")));
  } else if (table.next) {
    buttons.push(el("a", { class: "button primary", href: `/t/${table.next}` }, _("Watch the next game")));
  }
  buttons.push(el("a", { class: "button", id: "review-link", href: `/replay/${tableId}?review=1` }, _("Review this game")));
  buttons.push(el("a", { class: "button", href: `/replay/${tableId}` }, _("Watch the replay")));
  buttons.push(el("a", { class: "button", href: `/api/tables/${tableId}/record`, download: "" }, _("Download the record")));
  buttons.push(el("a", { class: "button ghost", href: "/" }, _("Lobby")));
  const parts = [
    el("div", { class: `end-crest ${won ? "won" : ""}` }, logo(56)),
    el("h2", { id: "end-title" }, won ? _("You win!") : _("Game over")),
    won
      ? (names.length ? el("p", { class: "end-winners" }, _("Together with {names}", { names: names.join(_(" and ")) })) : null)
      : el("p", { class: "end-winners" }, ngettext("Winner: {names}", "Winners: {names}", winners.length, { names: names.join(_(" and ")) })),
    page.board.summary ? page.board.summary(page.msg) : null,
    el("div", { class: "end-buttons" }, buttons),
    endReview(),
    el("form", { method: "dialog" }, el("button", { class: "ghost" }, _("Look at the table"))),
  ];
  $("end-body").replaceChildren(...parts.filter((part) => part));
}

/** The statistics of the review, in the end panel: asked for once, filled in when ready (the
 * server judges every move once, for everyone, then keeps it). */
function endReview() {
  const box = el("section", { class: "review-box", id: "end-review", "aria-live": "polite" }, el("h3", {}, _("How everyone played")));
  if (page.review && page.review.data) {
    box.append(statsTable(page.review.data, (s) => ctx.plainName(s)));
  } else if (page.review && page.review.error) {
    box.append(el("p", { class: "muted" }, _("No review: {reason}", { reason: page.review.error })));
  } else {
    box.append(el("p", { class: "muted" }, _("Every move is being judged…")));
    if (!page.review) {
      page.review = {};
      api(`/api/tables/${tableId}/review`)
        .then((data) => { page.review.data = data; })
        .catch((error) => { page.review.error = error.message; })
        .finally(() => { if ($("end-dialog").open) fillEnd(); });
    }
  }
  return box;
}

async function playAgain() {
  const button = $("again-btn");
  button.disabled = true;
  try {
    const token = page.seat ? page.seat.token : lostSeat().token;
    const next = await api(`/api/tables/${tableId}/again`, { method: "POST", token });
    saveSeat(next.id, next.seat, next.token);
    location.assign(`/t/${next.id}`);
  } catch (error) {
    toast(error.message);
    button.disabled = false;
  }
}

start();
