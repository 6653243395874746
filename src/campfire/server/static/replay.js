// The replay of a finished game, one record entry at a time, with every hidden thing shown.
import { api, el, logo, nameText, possessiveName, seatName, toast } from "/static/common.js";
import { lossChart, moveVerdict, statsTable } from "/static/review.js";
import { _, ngettext } from "/static/i18n.js";

const tableId = location.pathname.split("/").filter(Boolean).pop();
const $ = (id) => document.getElementById(id);
const page = { table: null, board: null, step: 0, target: 0, steps: 0, timer: null, cache: new Map(), review: null };

const ctx = {
  you: null,
  get table() { return page.table; },
  name: (seat) => seatName(page.table, seat, null),
  plainName: (seat) => seatName(page.table, seat, null),
  possessive: (seat, thing) => possessiveName(page.table, seat, null, thing),
  names: (text) => nameText(text, page.table, null),
  act: async () => { throw new Error(_("a replay cannot be played")); },
  toast,
};

async function start() {
  $("brand-logo").append(logo(26));
  let first;
  try {
    first = await fetchStep(0);
  } catch (error) {
    $("title").textContent = _("No replay");
    $("stage").append(el("div", { class: "notice" }, el("p", {}, error.message), el("p", {}, el("a", { href: `/t/${tableId}` }, _("Go to the table")))));
    return;
  }
  page.table = first.table;
  page.steps = first.steps;
  $("title").textContent = _("{title}: replay", { title: first.table.title });
  document.title = _("{title} replay — Campfire", { title: first.table.title });
  $("download").href = `/api/tables/${tableId}/record`;
  let module;
  if (first.table.has_page) {
    $("game-css").setAttribute("href", `/games/${first.table.game}/table.css`);
    module = await import(`/games/${first.table.game}/table.js`);
  } else {
    module = await import("/static/generic.js");
  }
  page.board = module.createBoard({ stage: $("stage"), controls: $("controls"), side: $("side"), ctx });
  $("step").max = String(page.steps);
  $("step").addEventListener("input", () => go(Number($("step").value)));
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(page.target - 1));
  $("next").addEventListener("click", () => go(page.target + 1));
  $("last").addEventListener("click", () => go(page.steps));
  $("play").addEventListener("click", togglePlay);
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT") return;
    if (event.key === "ArrowRight") go(page.target + 1);
    else if (event.key === "ArrowLeft") go(page.target - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(page.steps);
    else if (event.key === " ") { event.preventDefault(); togglePlay(); }
  });
  show(first);
  loadReview();
}

/** The review (every move judged, from its seat's view): the chart and the statistics, and
 * beside each move its label, the better move and the odds or read that decided it. */
async function loadReview() {
  const nameOf = (seat) => ctx.plainName(seat);
  try {
    page.review = await api(`/api/tables/${tableId}/review`);
  } catch (error) {
    $("review-status").textContent = _("No review: {reason}", { reason: error.message });
    return;
  }
  page.reviewAt = new Map(page.review.decisions.map((d) => [d.index, d]));
  $("review-status").textContent = _("Each seat's loss move by move: how much of its expected share of the win a move gave up against the best one (click a dot to go to that move).");
  $("review-chart").replaceChildren(lossChart(page.review, nameOf, (d) => go(d.index + 1)));
  $("review-stats").replaceChildren(statsTable(page.review, nameOf));
  showVerdict();
  if (new URLSearchParams(location.search).has("review")) $("review").scrollIntoView();
}

function showVerdict() {
  const decision = page.reviewAt && page.step > 0 ? page.reviewAt.get(page.step - 1) : null;
  $("review-move").replaceChildren(...[moveVerdict(decision, (seat) => ctx.plainName(seat))].filter(Boolean));
  for (const dot of document.querySelectorAll(".loss-dot.current")) dot.classList.remove("current");
  if (decision) {
    const dot = document.querySelector(`.loss-dot[data-index="${decision.index}"]`);
    if (dot) dot.classList.add("current");
  }
}

async function fetchStep(step) {
  if (!page.cache.has(step)) page.cache.set(step, api(`/api/tables/${tableId}/replay?step=${step}`));
  try {
    return await page.cache.get(step);
  } catch (error) {
    page.cache.delete(step);
    throw error;
  }
}

async function go(step) {
  step = Math.max(0, Math.min(page.steps, step));
  if (step === page.target) return;
  page.target = step; // quick key presses count from where they are heading, not where we are
  try {
    const data = await fetchStep(step);
    if (page.target === step) show(data);
  } catch (error) {
    toast(error.message);
  }
}

function show(data) {
  page.step = data.step;
  $("step").value = String(data.step);
  $("step-label").textContent = _("step {step} of {steps}", { step: data.step, steps: data.steps });
  // the step told in sentences, the same words as the story and the table's log
  const told = data.events.filter((e) => e.text).map((e) => ctx.names(e.text));
  if (!data.entry) $("entry").textContent = _("The table before the first move.");
  else if (!told.length) $("entry").textContent = _("Nothing anyone can see changes at this step.");
  else $("entry").textContent = "";
  $("step-events").replaceChildren(...told.map((text) => el("li", {}, text)));
  showVerdict();
  page.board.revealed(data);
  $("log").replaceChildren(...data.story.map((line) => el("li", {}, ctx.names(line))));
  showChat(data.chat);
  const box = $("log").parentElement;
  box.scrollTop = box.scrollHeight;
  $("prev").disabled = data.step === 0;
  $("first").disabled = data.step === 0;
  $("next").disabled = data.step === data.steps;
  $("last").disabled = data.step === data.steps;
  if (data.step === data.steps) {
    const winners = data.table.winners.map((s) => ctx.name(s));
    $("banner").textContent = ngettext("Game over: {names} won. Everything is revealed in a replay.", "Game over: {names} won. Everything is revealed in a replay.", winners.length, { names: winners.join(_(" and ")) });
  } else {
    $("banner").textContent = _("Everything is revealed in a replay.");
  }
}

/** The table talk of the game, when the server keeps it with the replay (text only). */
function showChat(messages) {
  if (!Array.isArray(messages) || !messages.length) {
    $("chat").hidden = true;
    return;
  }
  $("chat-log").replaceChildren(...messages.filter((m) => m && typeof m.text === "string").map((m) => {
    const seat = typeof m.seat === "number" ? m.seat : null;
    const who = seat === null ? _("{name} (watching)", { name: m.name || _("someone") }) : ctx.plainName(seat);
    return el("li", {}, el("span", { class: `who${seat === null ? " watcher" : ""}` }, `${who}:`), m.text);
  }));
  $("chat").hidden = false;
}

function togglePlay() {
  if (page.timer) {
    clearInterval(page.timer);
    page.timer = null;
    $("play").textContent = _("▶ Play");
    return;
  }
  $("play").textContent = _("❚❚ Pause");
  page.timer = setInterval(() => {
    if (page.target >= page.steps) togglePlay();
    else go(page.target + 1);
  }, 900);
}

start();
