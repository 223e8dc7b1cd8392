// The lobby's quick match (karnak.server.matchmaking): choose a game and a table size, press
// "Find me a game", and the server seats you with people of a like rating who want the same
// table; the game starts as soon as the table is full and this page goes to it. While the
// ticket waits the panel shows the time waited, how many others want that table, Cancel, and
// once the wait is over "Play now with bots" (at the player's level). For accounts only: a
// guest is told to log in. The ticket lives on the server, so a reload (or another tab)
// finds it again: GET /api/quickmatch on load, then every POLL_MS while it waits.
//
// Every refusal is shown in the server's own words in #quickmatch-error (role=alert), and so
// is a server that does not answer; the live region (#quickmatch-status) is told only what
// changed, the clocks tick in role=timer elements (not read out every second).
import { $, el } from "./dom.js";
import { nt, t } from "./i18n.js";
import { callJson, problemText, whoAmI } from "./session.js";

const PATH = "/api/quickmatch";
const POLL_MS = 1500; // how often a waiting ticket is looked at
const MOST = 5; // the largest table quick match makes (karnak.server.matchmaking.service)

let games = []; // GET /api/games/available, those quick match can seat
let ticket = null; // the last ticket the server sent
let seenAt = 0; // Date.now() when it came (the clocks tick on from there)
let poller = null;
let ticker = null;
let busy = false; // a write is on its way: the poll waits for it
let writes = 0; // writes sent so far: a look sent before the last one is out of date
let going = false; // on the way to the game: nothing more to do here
let pollFailed = false; // the error line tells that the last look failed (cleared by the next)

// ------------------------------------------------------------------ asking the server
async function call(method, body) {
  const path = method === "BOTS" ? `${PATH}/bots` : PATH;
  return callJson(method === "BOTS" ? "POST" : method, path, body);
}

const problem = problemText;

function showError(text) {
  pollFailed = false;
  setText("quickmatch-error", text);
}

// Live regions are told only what changed: the same text again is not read out again.
function setText(id, text) {
  const node = $(id);
  if (node.textContent !== text) node.textContent = text;
}

// ------------------------------------------------------------------ words
function sizes(game) {
  const sizes = [];
  for (let n = Math.max(2, game.min_players); n <= Math.min(MOST, game.max_players); n++) sizes.push(n);
  return sizes;
}

function sizesText(game) {
  const [low, high] = [sizes(game)[0], sizes(game).at(-1)];
  if (low === high) return nt("{n} player", "{n} players", low, { n: low });
  return t("{low}-{high} players", { low, high });
}

function gameOf(name) {
  return games.find((game) => game.name === name);
}

function titleOf(found) {
  const game = gameOf(found.game);
  return game ? game.title : found.title;
}

// The level offered, as the lobby names it (the game's levels for that many bots).
function levelLabel(found) {
  const game = gameOf(found.game);
  const bots = found.players - 1;
  const bands = (game && game.levels) || [];
  const band = bands.find((b) => bots >= b.bots_from && bots <= b.bots_to) || bands[bands.length - 1];
  const level = band && band.levels.find((l) => l.name === found.level);
  return level ? level.label : found.level;
}

function two(n) {
  return String(n).padStart(2, "0");
}

// 12:04 (minutes, seconds) or 1:02:03
function clockText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

// ------------------------------------------------------------------ the form
function fillGames() {
  const select = $("quickmatch-game");
  select.replaceChildren(...games.map((game) =>
    el("option", { value: game.name, text: t("{game} ({players})", { game: game.title, players: sizesText(game) }) })));
  fillSizes();
}

// The table sizes the chosen game allows (2 to 5); the chosen size stays where it can.
function fillSizes(wanted) {
  const game = gameOf($("quickmatch-game").value);
  const select = $("quickmatch-players");
  const allowed = game ? sizes(game) : [2];
  const keep = Number(wanted || select.value);
  const chosen = allowed.includes(keep) ? keep : allowed[0];
  select.replaceChildren(...allowed.map((n) =>
    el("option", { value: n, text: nt("{n} player", "{n} players", n, { n }), selected: n === chosen ? "" : null })));
  $("quickmatch-players-label").hidden = allowed.length < 2; // Aton: 2, said beside its name
}

function choose(found) {
  if (!gameOf(found.game)) return;
  $("quickmatch-game").value = found.game;
  fillSizes(found.players);
}

async function find(event) {
  event.preventDefault();
  if (busy) return;
  busy = true;
  writes += 1;
  showError("");
  $("quickmatch-find").disabled = true;
  const body = { game: $("quickmatch-game").value, players: Number($("quickmatch-players").value) };
  const answer = await call("POST", body);
  busy = false;
  $("quickmatch-find").disabled = false;
  if (!answer.ok) {
    if (answer.status === 401) { showGuest(); return; }
    showError(problem(answer));
    return;
  }
  show(answer.data.ticket, true);
  if (!$("quickmatch-waiting").hidden) $("quickmatch-cancel").focus(); // the form is gone
}

// ------------------------------------------------------------------ waiting
async function cancel() {
  if (busy) return;
  busy = true;
  writes += 1;
  showError("");
  $("quickmatch-cancel").disabled = true;
  const answer = await call("DELETE");
  // matched meanwhile (cancelled false): the ticket says where the game is
  const now = answer.ok ? await call("GET") : null;
  $("quickmatch-cancel").disabled = false;
  busy = false;
  if (!answer.ok) {
    if (answer.status === 401) { showGuest(); return; }
    showError(problem(answer));
    return;
  }
  if (now.ok) show(now.data.ticket, true);
  else showError(problem(now));
  if (answer.data && answer.data.cancelled) {
    setText("quickmatch-state", t("You left the queue."));
    $("quickmatch-find").focus();
  }
}

async function withBots() {
  if (busy) return;
  busy = true;
  writes += 1;
  showError("");
  $("quickmatch-bots").disabled = true;
  const answer = await call("BOTS");
  busy = false;
  $("quickmatch-bots").disabled = false;
  if (!answer.ok) {
    if (answer.status === 401) { showGuest(); return; }
    showError(problem(answer));
    return;
  }
  show(answer.data.ticket, true);
}

async function poll() {
  if (busy || going) return;
  const sent = writes;
  const answer = await call("GET");
  if (busy || going || sent !== writes) return;
  if (!answer.ok) {
    if (answer.status === 401) { showGuest(); return; }
    showError(problem(answer)); // the poll goes on: the line clears when the server is back
    pollFailed = true;
    return;
  }
  if (pollFailed) { showError(""); pollFailed = false; } // (a refusal's line stays)
  show(answer.data.ticket, true);
}

function stopWaiting() {
  clearInterval(poller);
  clearInterval(ticker);
  poller = ticker = null;
}

// The clocks between two looks: the time waited, and until bots are offered.
function tick() {
  if (!ticket || !["waiting", "matching"].includes(ticket.status)) return;
  const since = (Date.now() - seenAt) / 1000;
  setText("quickmatch-waited", t("Waiting for {time}", { time: clockText(ticket.waited + since) }));
  const botsIn = ticket.bots_in === null || ticket.bots_in === undefined ? null : Math.ceil(ticket.bots_in - since);
  const offered = ticket.status === "waiting" && botsIn !== null && botsIn <= 0;
  setText("quickmatch-bots-in", ticket.status === "waiting" && botsIn !== null && botsIn > 0
    ? nt("Bots are offered in {n} second.", "Bots are offered in {n} seconds.", botsIn, { n: botsIn })
    : "");
  const button = $("quickmatch-bots");
  if (offered) {
    const text = t("Play now with bots ({level})", { level: levelLabel(ticket) });
    if (button.textContent !== text) button.textContent = text;
  }
  button.hidden = !offered;
  setText("quickmatch-offer", offered ? t("The wait is over: you may play now with bots of your level, or keep waiting.") : "");
}

// ------------------------------------------------------------------ the panel's states
function showGuest() {
  stopWaiting();
  ticket = null;
  $("quickmatch-guest").hidden = false;
  $("quickmatch-form").hidden = true;
  $("quickmatch-waiting").hidden = true;
  $("quickmatch-game-link").hidden = true;
  setText("quickmatch-state", "");
  setText("quickmatch-queue", "");
  setText("quickmatch-offer", "");
}

function showForm() {
  stopWaiting();
  $("quickmatch-form").hidden = false;
  $("quickmatch-waiting").hidden = true;
  setText("quickmatch-queue", "");
  setText("quickmatch-offer", "");
}

function showGame(url) {
  const link = $("quickmatch-go");
  link.setAttribute("href", url);
  $("quickmatch-game-link").hidden = false;
}

// `fresh`: the ticket changed while this page looked (asked, matched, bots taken): a game
// that starts now is opened at once. A ticket found on load that had a game already only
// shows its link (the game may be long over).
async function show(found, fresh) {
  const before = ticket;
  ticket = found;
  seenAt = Date.now();
  $("quickmatch-guest").hidden = true;
  if (!found || found.status === "cancelled") {
    showForm();
    if (before && ["waiting", "matching"].includes(before.status)) setText("quickmatch-state", t("You left the queue."));
    $("quickmatch-game-link").hidden = true;
    return;
  }
  const title = titleOf(found);
  if (found.status === "waiting" || found.status === "matching") {
    $("quickmatch-form").hidden = true;
    $("quickmatch-waiting").hidden = false;
    $("quickmatch-game-link").hidden = true;
    choose(found);
    setText("quickmatch-state", found.status === "matching"
      ? t("Players found: your game of {game} is being set up.", { game: title })
      : nt("Looking for a game of {game} with {n} player.", "Looking for a game of {game} with {n} players.", found.players, { game: title, n: found.players }));
    const others = Math.max(0, found.queue - 1); // the queue counts this ticket too
    setText("quickmatch-queue", others
      ? nt("{n} other person waits for this table.", "{n} other people wait for this table.", others, { n: others })
      : t("Nobody else waits for this table yet."));
    tick();
    if (!poller) poller = setInterval(poll, POLL_MS);
    if (!ticker) ticker = setInterval(tick, 1000);
    return;
  }
  // matched, or with bots: the game
  stopWaiting();
  $("quickmatch-waiting").hidden = true;
  $("quickmatch-form").hidden = false;
  setText("quickmatch-queue", "");
  setText("quickmatch-offer", "");
  if (!found.url) { showForm(); return; }
  if (fresh) {
    $("quickmatch-form").hidden = true;
    setText("quickmatch-state", found.status === "bots"
      ? t("Your game of {game} against bots is ready: opening it.", { game: title })
      : t("Players found: opening your game of {game}.", { game: title }));
    showGame(found.url);
    going = true;
    location.assign(found.url);
    return;
  }
  // found on load: its link while the game is still to play
  const answer = await fetch(`/api/games/${encodeURIComponent(found.game_id)}`).then((r) => (r.ok ? r.json() : null)).catch(() => null);
  if (ticket !== found) return;
  if (answer && answer.status && answer.status !== "running") return; // over: nothing to open
  setText("quickmatch-state", t("Your quick match of {game} has started.", { game: title }));
  showGame(found.url);
}

// ------------------------------------------------------------------ mounting
// The account's ticket as the server has it now (on load, and back from the game's page).
async function load() {
  const me = await whoAmI();
  if (!me || !me.account) { showGuest(); return; }
  going = false;
  ticket = null;
  setText("quickmatch-state", "");
  $("quickmatch-game-link").hidden = true;
  showForm(); // never blank: the form shows while the ticket is asked
  const answer = await call("GET");
  if (!answer.ok) {
    if (answer.status === 401) { showGuest(); return; }
    showError(problem(answer));
    return;
  }
  await show(answer.data.ticket, false);
}

/** The quick-match panel of the lobby, for the games the lobby lists (`available`). */
export async function mountQuickMatch(available) {
  games = available.filter((game) => sizes(game).length);
  fillGames();
  $("quickmatch-game").addEventListener("change", () => fillSizes());
  $("quickmatch-form").addEventListener("submit", find);
  $("quickmatch-cancel").addEventListener("click", cancel);
  $("quickmatch-bots").addEventListener("click", withBots);
  // back from the game's page, a page kept by the browser would show "opening it": look again
  window.addEventListener("pageshow", (event) => { if (event.persisted) load(); });
  await load();
}
