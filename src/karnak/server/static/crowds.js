// The lobby's crowd tables (karnak.server.crowds): a big game that starts at a set time with
// everyone who joined. The panel lists the next crowds (up to SHOWN): the game, the start in
// the reader's time and in UTC, a live countdown, how many joined of how many seats, the turn
// timer, and Join / Leave for an account (a guest is told that joining needs one). The list
// is asked again every REFRESH_MS and when a countdown reaches 0.
//
// A crowd that has started leaves GET /api/crowds, so the panel remembers (in this browser)
// the crowds its account joined; when one of them has started, the member's notification
// (kind "table", live from the account bar's socket or in GET /api/notifications) holds the
// game's link, and the panel shows "Open your game". A crowd that could not start is told in
// the server's own words (its notification).
//
// Every refusal is shown in the server's own words in #crowds-error (role=alert); the live
// region (#crowds-state) and each crowd's count are told only what changed; the countdowns
// tick in role=timer elements (not read out every second).
import { $, el } from "./dom.js";
import { formatDate, formatNumber, nt, t } from "./i18n.js";
import { callJson, problemText, whoAmI } from "./session.js";

const PATH = "/api/crowds";
const SHOWN = 3; // how many crowds the panel shows
const REFRESH_MS = 15000; // how often the list is asked again
const KEEP_MS = 6 * 3600 * 1000; // how long after its start a joined crowd is remembered
const CLOCK_SLACK_MS = 5 * 60 * 1000; // the browser's clock and the server's may differ

let account = null; // the reader's account, or null for a guest
let crowds = []; // the last list the server sent
let started = []; // crowds that started lately (their game linked)
let seenAt = 0; // Date.now() when it came (the countdowns tick on from there)
let loading = false;
let again = false; // a refresh was asked while one was on its way
let busy = false; // a join or leave is on its way
let zeroSeen = new Set(); // crowds whose countdown reached 0 (the list is asked once for each)
let listFailed = false; // the error line tells that the last look failed (cleared by the next)
let shownGame = null; // the started crowd whose game the panel links

// ------------------------------------------------------------------ asking the server
const call = (method, path) => callJson(method, path);
const problem = problemText;

function showError(text) {
  listFailed = false;
  setText($("crowds-error"), text);
}

// Live regions are told only what changed: the same text again is not read out again.
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

// ------------------------------------------------------------------ the crowds this browser joined
function memoryKey() {
  return `karnak.crowds.${account.id}`;
}

function remembered() {
  if (!account) return {};
  try { return JSON.parse(localStorage.getItem(memoryKey()) || "{}") || {}; } catch { return {}; }
}

function remember(all) {
  try { localStorage.setItem(memoryKey(), JSON.stringify(all)); } catch { /* private mode */ }
}

function keep(crowd) {
  const all = remembered();
  const since = (all[crowd.id] && all[crowd.id].since) || new Date().toISOString();
  all[crowd.id] = { game: crowd.game, title: crowd.title, starts_at: crowd.starts_at, turn_timer: crowd.turn_timer, since };
  remember(all);
}

function forget(id) {
  const all = remembered();
  delete all[id];
  remember(all);
}

// ------------------------------------------------------------------ words
function two(n) {
  return String(n).padStart(2, "0");
}

// 12:04 (minutes, seconds) or 1:02:03
function clockText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

function secondsLeft(crowd) {
  return Math.max(0, Math.ceil(crowd.seconds_left - (Date.now() - seenAt) / 1000));
}

function countdownText(crowd) {
  const left = secondsLeft(crowd);
  if (left <= 0) return t("Starting now…");
  return t("Starts in {time}", { time: clockText(left) });
}

function whenText(crowd) {
  const start = new Date(crowd.starts_at);
  const local = formatDate(start, { weekday: "short", hour: "2-digit", minute: "2-digit" });
  const utc = formatDate(start, { hour: "2-digit", minute: "2-digit", timeZone: "UTC", hourCycle: "h23" });
  return t("Starts at {local} your time ({utc} UTC)", { local, utc });
}

function membersText(crowd) {
  return nt("{n} player has joined, of {seats} seats", "{n} players have joined, of {seats} seats",
    crowd.members, { seats: formatNumber(crowd.seats) });
}

function timerText(crowd) {
  const seconds = Math.round(crowd.turn_timer);
  if (seconds === 60) return t("Turn timer: a minute a step; a bot plays the step of whoever misses it");
  if (seconds % 60 === 0) {
    const minutes = seconds / 60;
    return nt("Turn timer: {n} minute a step; a bot plays the step of whoever misses it",
      "Turn timer: {n} minutes a step; a bot plays the step of whoever misses it", minutes);
  }
  return nt("Turn timer: {n} second a step; a bot plays the step of whoever misses it",
    "Turn timer: {n} seconds a step; a bot plays the step of whoever misses it", seconds);
}

function headingText(crowd) {
  return t("{game} crowd table", { game: crowd.title });
}

// ------------------------------------------------------------------ the list
function item(crowd) {
  const heading = `crowd-${crowd.id}-heading`;
  const node = el("li", { class: "crowd", "data-crowd": crowd.id, "aria-labelledby": heading },
    el("h3", { id: heading, class: "crowd-title" }),
    el("p", { class: "crowd-when" }),
    el("p", {},
      el("span", { class: "crowd-countdown", role: "timer" })),
    el("p", { class: "crowd-members", "aria-live": "polite" }),
    el("p", { class: "crowd-timer note" }),
    el("p", { class: "crowd-joined", "aria-live": "polite" }),
  );
  if (account) {
    const button = el("button", { type: "button", class: "crowd-join", "aria-describedby": heading });
    button.addEventListener("click", () => toggle(crowd.id));
    node.append(el("p", { class: "crowd-actions" }, button));
  }
  return node;
}

function fill(node, crowd) {
  setText(node.querySelector(".crowd-title"), headingText(crowd));
  setText(node.querySelector(".crowd-when"), whenText(crowd));
  setText(node.querySelector(".crowd-countdown"), countdownText(crowd));
  setText(node.querySelector(".crowd-members"), membersText(crowd));
  setText(node.querySelector(".crowd-timer"), timerText(crowd));
  setText(node.querySelector(".crowd-joined"), crowd.joined
    ? t("You have joined: you will be reminded five minutes before the start.")
    : "");
  const button = node.querySelector(".crowd-join");
  if (button) {
    const text = crowd.joined ? t("Leave") : t("Join");
    setText(button, text);
    button.classList.toggle("joined", Boolean(crowd.joined));
    button.setAttribute("aria-busy", busy ? "true" : "false"); // (not disabled: it keeps the focus)
  }
}

function render() {
  const list = $("crowds-list");
  const shown = crowds.slice(0, SHOWN);
  setText($("crowds-empty"), shown.length ? "" : t("No crowd table is scheduled at the moment."));
  const old = new Map([...list.children].map((node) => [node.dataset.crowd, node]));
  const nodes = shown.map((crowd) => old.get(crowd.id) || item(crowd));
  // in place: a focused button stays focused, and the live counts are told only changes
  nodes.forEach((node, index) => {
    if (list.children[index] !== node) list.insertBefore(node, list.children[index] || null);
  });
  for (const [id, node] of old) if (!shown.some((c) => c.id === id)) node.remove();
  shown.forEach((crowd, index) => fill(nodes[index], crowd));
}

// The countdowns between two looks; one at 0 asks for the list again (once).
function tick() {
  for (const crowd of crowds.slice(0, SHOWN)) {
    const node = $("crowds-list").querySelector(`[data-crowd="${CSS.escape(crowd.id)}"]`);
    if (node) setText(node.querySelector(".crowd-countdown"), countdownText(crowd));
    if (secondsLeft(crowd) <= 0 && !zeroSeen.has(crowd.id)) {
      zeroSeen.add(crowd.id);
      refresh();
    }
  }
}

async function refresh() {
  if (loading) { again = true; return; }
  loading = true;
  try {
    do {
      again = false;
      await look();
    } while (again);
  } finally {
    loading = false;
  }
}

async function look() {
  const answer = await call("GET", PATH);
  if (!answer.ok) {
    showError(problem(answer)); // the looks go on: the line clears when the server is back
    listFailed = true;
    return;
  }
  if (listFailed) { showError(""); listFailed = false; } // (a refusal's line stays)
  const all = answer.data.crowds || [];
  // a crowd that started lately stays listed with its game: its members are sent there
  crowds = all.filter((c) => c.status !== "started");
  started = all.filter((c) => c.status === "started");
  seenAt = Date.now();
  if (account) {
    for (const crowd of crowds) {
      if (crowd.joined) keep(crowd);
      else forget(crowd.id);
    }
  }
  render();
  await findStarted();
}

// ------------------------------------------------------------------ joining, leaving
async function toggle(id) {
  const crowd = crowds.find((c) => c.id === id);
  if (!crowd || busy) return;
  busy = true;
  showError("");
  render();
  const path = `${PATH}/${encodeURIComponent(id)}/join`;
  const answer = await call(crowd.joined ? "DELETE" : "POST", path);
  busy = false;
  if (!answer.ok) {
    if (answer.status === 401) { account = null; showGuest(); }
    render();
    showError(problem(answer));
    if (answer.status === 404 || answer.status === 409) refresh(); // started, full, gone
    return;
  }
  if (crowd.joined) {
    crowd.joined = false;
    if (answer.data && answer.data.left) crowd.members = Math.max(0, crowd.members - 1);
    forget(id);
    setText($("crowds-state"), t("You left the {game} crowd table.", { game: crowd.title }));
  } else {
    Object.assign(crowd, answer.data, { seconds_left: crowd.seconds_left });
    keep(crowd);
    setText($("crowds-state"), t("You joined the {game} crowd table.", { game: crowd.title }));
  }
  render();
}

// ------------------------------------------------------------------ the game of a started crowd
// A joined crowd no longer listed has started (or could not): its game is in the member's
// notification of the start, sent after they joined: a game of the crowd's game with the
// crowd's turn timer. The newest such game still running is linked.
async function findStarted() {
  if (!account) return;
  const now = Date.now();
  const all = remembered();
  const gone = Object.entries(all).filter(([id, crowd]) => {
    if (!(now - Date.parse(crowd.starts_at) < KEEP_MS)) { delete all[id]; return false; }
    return !crowds.some((c) => c.id === id);
  });
  remember(all);
  const listedUrl = started.find((c) => c.joined && c.url) || crowds.find((c) => c.joined && c.url);
  if (listedUrl) { await showGame(listedUrl, listedUrl.url); return; }
  if (!gone.length) return;
  const answer = await call("GET", "/api/notifications");
  if (!answer.ok || !answer.data) return;
  const notes = (answer.data.notifications || []).filter((n) => n.kind === "table");
  for (const [id, crowd] of gone.sort((a, b) => Date.parse(b[1].starts_at) - Date.parse(a[1].starts_at))) {
    const since = Date.parse(crowd.since || crowd.starts_at) - CLOCK_SLACK_MS;
    const after = notes.filter((n) => Date.parse(n.created_at) >= since);
    for (const note of after) {
      const match = /^\/games\/([A-Za-z0-9_-]+)$/.exec(note.link || "");
      if (!match) continue;
      const game = await call("GET", `/api/games/${encodeURIComponent(match[1])}`);
      if (!game.ok || !game.data || game.data.game !== crowd.game) continue;
      if (crowd.turn_timer && game.data.turn_timer !== crowd.turn_timer) continue; // another table
      if (game.data.status && game.data.status !== "running") { forget(id); break; } // over
      await showGame({ id, ...crowd }, note.link);
      return;
    }
    const cancelled = after.find((n) => n.link === "/" && n.text.includes(crowd.title));
    if (cancelled) {
      forget(id);
      setText($("crowds-state"), cancelled.text); // the server's words: why it could not start
    }
  }
}

async function showGame(crowd, url) {
  const link = $("crowds-go");
  if (shownGame !== url) {
    shownGame = url;
    link.setAttribute("href", url);
    setText($("crowds-state"), t("Your {game} crowd table has started.", { game: crowd.title }));
  }
  $("crowds-game-link").hidden = false;
}

// ------------------------------------------------------------------ mounting
function showGuest() {
  $("crowds-guest").hidden = false;
  $("crowds-game-link").hidden = true;
  for (const p of document.querySelectorAll("#crowds-list .crowd-actions")) p.remove();
}

/** The crowd-tables panel of the lobby. */
export async function mountCrowds() {
  setText($("crowds-empty"), t("Looking for the next crowd tables…")); // never blank
  const me = await whoAmI();
  account = me && me.account ? me.account : null;
  if (!account) showGuest();
  await refresh();
  setInterval(refresh, REFRESH_MS);
  setInterval(tick, 1000);
  // the start's notification, live: the game's link without waiting for the next look
  document.addEventListener("karnak:notification", (event) => {
    const note = event.detail || {};
    if (note.kind === "table" || note.kind === "invitation") refresh();
  });
  // back from the game's page, a page kept by the browser shows old counts: look again
  window.addEventListener("pageshow", (event) => { if (event.persisted) refresh(); });
}
