// Small helpers shared by the lobby, the table and the replay pages.
import { _, ngettext } from "/static/i18n.js";

/** Build an element: el("button", {class: "x", onclick: f}, "text", child, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      node.className = value;
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key === "style" && typeof value === "object") {
      // set from script, never as an attribute string (the pages run under a strict CSP)
      for (const [prop, v] of Object.entries(value)) {
        if (prop.startsWith("--")) node.style.setProperty(prop, v);
        else node.style[prop] = v;
      }
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Build an SVG element the same way. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** JSON API call; throws an Error carrying the server's reason. */
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new Error(_("the server cannot be reached; check your connection"));
  }
  let data = null;
  const text = await response.text();
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const reason = (data && data.error) || text || response.statusText;
    const error = new Error(reason);
    error.status = response.status;
    // seconds until the same request may succeed, when the server knows (a 429's Retry-After)
    const wait = Number(response.headers.get("Retry-After"));
    error.retryAfter = response.headers.has("Retry-After") && Number.isFinite(wait) ? wait : null;
    throw error;
  }
  return data;
}

// --- seats remembered in this browser ---------------------------------------------------------
const SEAT_KEY = (id) => `campfire:seat:${id}`;

export function savedSeat(tableId) {
  try {
    const raw = localStorage.getItem(SEAT_KEY(tableId));
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

export function saveSeat(tableId, seat, token) {
  localStorage.setItem(SEAT_KEY(tableId), JSON.stringify({ seat, token, saved: Date.now() }));
}

/** Every table this browser holds a seat at, the newest first: the lobby's "Your games". */
export function savedSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const match = key && key.match(/^campfire:seat:([A-Za-z0-9_-]+)$/);
    if (!match) continue;
    try {
      const seat = JSON.parse(localStorage.getItem(key));
      if (seat && typeof seat.seat === "number") out.push({ id: match[1], seat: seat.seat, saved: seat.saved || 0 });
    } catch {
      // a damaged entry: skip it
    }
  }
  return out.sort((a, b) => b.saved - a.saved);
}

export function forgetSeat(tableId) {
  localStorage.removeItem(SEAT_KEY(tableId));
}

export function savedName() {
  return localStorage.getItem("campfire:name") || "";
}

export function saveName(name) {
  localStorage.setItem("campfire:name", name);
}

/** A choice this browser remembers ("1" or "0"), e.g. the turn sound or auto-continue. */
export function setting(name, fallback) {
  try {
    const raw = localStorage.getItem(`campfire:${name}`);
    return raw === null ? fallback : raw === "1";
  } catch {
    return fallback;
  }
}

export function saveSetting(name, on) {
  try {
    localStorage.setItem(`campfire:${name}`, on ? "1" : "0");
  } catch {
    // private windows may refuse storage: the choice lasts for this page only
  }
}

// --- names ---------------------------------------------------------------------------------------
/** The name shown for a seat: "You" for this browser's own seat (in sentences), the player's
 * name, or "Seat n" while it is free. A name that reads like "you" or "seat 3" gets its seat
 * number, so nobody else's name can pass for you or for another seat. */
export function seatName(table, seat, you) {
  if (seat === you) return _("You");
  const s = table && table.seats[seat];
  const name = s && s.name;
  if (!name) return _("Seat {seat}", { seat });
  return /^\s*(you|your|yours|me|seat\s*\d+)\s*$/i.test(name) ? _("{name} (seat {seat})", { name, seat }) : name;
}

/** `thing` as a seat's: "your guess 12", "Ana's guess 12"; each language sets the words and
 * their order ("l'annonce 12 de Ana", "Anas Tipp 12"). `thing` is a noun without article. */
export function possessiveName(table, seat, you, thing) {
  if (seat === you) return _("your {thing}", { thing });
  return _("{name}’s {thing}", { thing, name: seatName(table, seat, you) });
}

/** The words narration uses for "seat 2" in the page's language ("Platz 2", "place 2"), as a
 * pattern: its first letter in either case, then the seat number. */
function seatPattern() {
  const before = _("Seat {seat}").split("{seat}")[0];
  const quote = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const head = before ? `[${quote(before[0].toUpperCase())}${quote(before[0].toLowerCase())}]${quote(before.slice(1))}` : "";
  return new RegExp(`(?<![\\p{L}\\p{N}])${head}(\\d+)('s)?`, "gu");
}

/** Narration from the server says "seat 2" (in the page's language); the page says the player's
 * name. */
export function nameText(text, table, you) {
  return text.replace(seatPattern(), (match, digits, possessive) => {
    const seat = Number(digits);
    if (!table || seat >= table.seats.length) return match;
    if (seat === you) return match;
    if (!table.seats[seat].name) return match;
    const name = seatName(table, seat, null);
    return possessive ? `${name}'s` : name;
  });
}

// --- notices -------------------------------------------------------------------------------------
/** A message that stays a few seconds: errors from the server are shown, never swallowed. */
export function toast(text, kind = "error") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = el("div", { id: "toasts", class: "toasts", "aria-live": "assertive" });
    document.body.append(box);
  }
  const note = el("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  box.append(note);
  setTimeout(() => note.classList.add("leaving"), 5200);
  setTimeout(() => note.remove(), 6000);
  return note;
}

/** A refusal told to a person (the server's 429s above all): what happened (`heading`), the
 * server's reason, what to do (`advice`) and, when the wait is known, a countdown after which
 * `ready` is called. Styled like the server's own refusal page (refused.html). */
export function refusalBox({ heading, reason, advice, retryAfter = null, actions = [], ready = null }) {
  const sentence = (text) => {
    const t = String(text || "");
    return t.charAt(0).toUpperCase() + t.slice(1) + (t.endsWith(".") ? "" : ".");
  };
  const when = el("p", { class: "refusal-when", role: "timer" });
  const box = el("div", { class: "notice refusal", role: "alert" },
    el("h2", {}, heading),
    el("p", { class: "refusal-reason" }, sentence(reason)),
    advice ? el("p", { class: "refusal-advice" }, advice) : null,
    when,
    actions.length ? el("p", { class: "refusal-actions" }, actions) : null);
  if (retryAfter === null || retryAfter === undefined) {
    when.hidden = true;
    if (ready) ready();
    return box;
  }
  const until = Date.now() + Math.ceil(retryAfter) * 1000;
  const tick = () => {
    const left = Math.ceil((until - Date.now()) / 1000);
    if (!box.isConnected && left < Math.ceil(retryAfter)) return; // replaced meanwhile
    if (left <= 0) {
      when.textContent = _("You can try again now.");
      if (ready) ready();
      return;
    }
    when.textContent = ngettext("Try again in {n} second.", "Try again in {n} seconds.", left);
    setTimeout(tick, Math.min(1000, until - Date.now() - (left - 1) * 1000));
  };
  tick();
  return box;
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** The campfire logo, used in headers and as the favicon. */
export function logo(size = 28) {
  return svg(
    "svg",
    { viewBox: "0 0 32 32", width: size, height: size, "aria-hidden": "true", class: "logo" },
    svg("path", { d: "M16 3c3 6 9 8 9 15a9 9 0 0 1-18 0c0-5 4-7 5-11 2 3 2 5 4 6 0-4-1-7 0-10z", fill: "#f59e42" }),
    svg("path", { d: "M16 14c2 3 4 4 4 7a4 4 0 0 1-8 0c0-2 2-3 2-5 1 1 1 2 2 2 0-2 0-3 0-4z", fill: "#fde68a" }),
    svg("rect", { x: 5, y: 27, width: 22, height: 3, rx: 1.5, fill: "#8b5a2b", transform: "rotate(-8 16 28)" }),
    svg("rect", { x: 5, y: 27, width: 22, height: 3, rx: 1.5, fill: "#6b4423", transform: "rotate(8 16 28)" }),
  );
}

/** Where the seat `k` places from the viewer sits in the phone layout's grid of six tracks,
 * each seat two tracks wide: rows as even as they go (at most three seats a row: 4 make 2+2,
 * 7 make 3+2+2, never 3+1), each row centred. A `grid-column` value. */
export function phoneColumn(k, players) {
  const rows = Math.ceil(players / 3);
  const base = Math.floor(players / rows);
  const extra = players % rows;
  let first = 0;
  for (let row = 0; row < rows; row++) {
    const size = base + (row < extra ? 1 : 0);
    if (k < first + size) return `${4 - size + 2 * (k - first)} / span 2`;
    first += size;
  }
  return "auto / span 2";
}

/** Seat positions on an ellipse, the viewer at the bottom, seats numbered clockwise.
 * The radii keep every seat card (`seatW` by `seatH` pixels) inside the ring. */
export function seatPositions(players, bottom, ring, seatW = 168, seatH = 150) {
  const width = ring.clientWidth || 1000;
  const height = ring.clientHeight || 620;
  const rx = Math.max(20, 50 - ((seatW / 2 + 4) / width) * 100);
  const ry = Math.max(20, 50 - ((seatH / 2 + 14) / height) * 100);
  const out = [];
  for (let s = 0; s < players; s++) {
    const k = (s - bottom + players) % players;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / players;
    out[s] = { left: 50 + rx * Math.cos(angle), top: 50 + ry * Math.sin(angle) };
  }
  return out;
}

// --- ratings beside names ------------------------------------------------------------------------
/** The signed-in players' ratings at these tables: {tableId: {seat: {rating, provisional}}}. */
export async function seatRatings(tableIds) {
  const ids = [...new Set(tableIds)].slice(0, 60);
  if (!ids.length) return {};
  try {
    return (await api(`/api/seat-ratings?tables=${ids.map(encodeURIComponent).join(",")}`)).tables || {};
  } catch {
    return {}; // ratings are an extra: the tables work without them
  }
}

/** "1523" or "1523?" (provisional), or null for a guest or a bot. */
export function ratingText(ratings, tableId, seat) {
  const r = ratings && ratings[tableId] && ratings[tableId][String(seat)];
  return r ? `${r.rating}${r.provisional ? "?" : ""}` : null;
}
