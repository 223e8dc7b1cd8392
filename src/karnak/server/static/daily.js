// The game of the day (/daily): today's day and the time left in it, the big Play / Resume
// button (POST /api/daily/today/play, then the game's own page), the caller's result with the
// expert and master bots' scores beside it ("beat the architect") and the text to share, the
// streak, today's leaderboard and the past days, each playable as practice. A past day's
// leaderboard opens here too (/daily?day=YYYY-MM-DD): once a day is over, its games link.
//
// Everything comes from the JSON API (karnak.server.daily; the contract: docs of issue 36).
// Every refusal's message is shown in a line of its own, and so is a server that does not
// answer. Names and texts go in as text, never as HTML.
//
// A guest's game is unranked and new at every press (the server keeps no guest attempt):
// this browser remembers today's, so that "Resume" opens it again rather than a new one.
import { $, el, installTooltips } from "./dom.js";
import { mountAccountBar, postJson, whoAmI } from "./session.js";
import { formatDate, formatNumber, nt, t } from "./i18n.js";

const PAGE = 50;
const CALENDAR_DAYS = 30;
const REFRESH_MS = 30000; // players, bots and the live leaderboard, while the page is seen
const GUEST_KEY = "karnak.daily.guest"; // {day, game_id, url, token}: a guest's game of today
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const askedDay = new URLSearchParams(location.search).get("day"); // a leaderboard to show

let me = { account: null };
let daily = null; // GET /api/daily
let deadline = 0; // Date.now() at the end of the day (the server's seconds_left: no clock skew)
let ticking = null;
let board = null; // {day, final, total, entries, bots}
let boardSeen = ""; // the last answer drawn (a refresh that changes nothing keeps the focus)
let boardPages = 0;
let guestGame = null; // the guest's game of today, remembered here
let guestShared = false;

// ------------------------------------------------------------------ asking the server
async function getJson(path) {
  try {
    const response = await fetch(path, { headers: { Accept: "application/json" } });
    let data = null;
    try { data = await response.json(); } catch { data = null; }
    return { ok: response.ok, status: response.status, data };
  } catch {
    return { ok: false, status: 0, data: null };
  }
}

async function post(path) {
  try {
    return await postJson(path, {});
  } catch {
    return { ok: false, status: 0, data: null };
  }
}

// What went wrong, for the person: the server's own words when it gave some.
function problem(answer, fallback) {
  if (answer.status === 0) return t("The server did not answer; try again in a moment.");
  const data = answer.data || {};
  const told = typeof data.error === "string" ? data.error : typeof data.detail === "string" ? data.detail : "";
  return told || fallback;
}

// ------------------------------------------------------------------ words and numbers
function asDate(day) {
  return new Date(`${day}T00:00:00Z`);
}

function longDay(day) {
  return formatDate(asDate(day), { dateStyle: "full", timeZone: "UTC" });
}

function shortDay(day) {
  return formatDate(asDate(day), { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
}

// Live regions are told only what changed: the same text again is not read out again.
function setText(id, text) {
  const node = $(id);
  if (node.textContent !== text) node.textContent = text;
}

function two(n) {
  return String(n).padStart(2, "0");
}

// 5:07:09 (hours, minutes, seconds) or 12:04 (minutes, seconds)
function clockText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

function points(score) {
  return nt("{n} point", "{n} points", score);
}

function plagues(n) {
  return nt("{n} plague", "{n} plagues", n);
}

// "63 points · Skilled · 2 plagues · 15:12 · place 3 of 12" (what is known of it)
function resultParts(attempt, total) {
  const parts = [points(attempt.score)];
  if (attempt.status) parts.push(attempt.status);
  if (attempt.plagues !== null && attempt.plagues !== undefined) parts.push(plagues(attempt.plagues));
  if (attempt.seconds !== null && attempt.seconds !== undefined) parts.push(t("time {time}", { time: clockText(attempt.seconds) }));
  if (attempt.place !== null && attempt.place !== undefined) {
    parts.push(total ? t("place {place} of {total}", { place: formatNumber(attempt.place), total: formatNumber(total) })
      : t("place {place}", { place: formatNumber(attempt.place) }));
  }
  return parts;
}

// ------------------------------------------------------------------ today and its countdown
function tick() {
  const left = (deadline - Date.now()) / 1000;
  if (left > 0) {
    $("countdown").textContent = clockText(left);
    return;
  }
  $("countdown").textContent = t("now: a new day begins");
  clearInterval(ticking);
  ticking = null;
  setTimeout(refresh, 5000); // the new day's game
}

function startCountdown(seconds) {
  deadline = Date.now() + Math.max(0, seconds) * 1000;
  if (!ticking) ticking = setInterval(tick, 1000);
  tick();
}

function renderToday() {
  const title = daily.title || "Egyptia";
  document.title = t("Karnak: {game} of the day", { game: title });
  $("title").textContent = t("{game} of the day", { game: title });
  const day = $("today-day");
  day.textContent = longDay(daily.day);
  day.setAttribute("datetime", daily.day);
  startCountdown(daily.seconds_left);
  renderPlayButton();
  setText("players-today", daily.players
    ? nt("{n} player has finished today's game so far.", "{n} players have finished today's game so far.", daily.players)
    : t("Nobody has finished today's game yet."));
  $("today-panel").hidden = false;
}

function renderPlayButton() {
  const button = $("play");
  const attempt = daily.attempt;
  $("guest-note").hidden = Boolean(me.account);
  button.setAttribute("aria-describedby", me.account ? "play-note" : "play-note guest-note");
  if (me.account) {
    if (!attempt) {
      button.textContent = t("Play");
      $("play-note").textContent = t("Your one ranked try of today: your score counts on the leaderboard.");
    } else if (!attempt.finished) {
      button.textContent = t("Resume");
      $("play-note").textContent = t("Your game is waiting where you left it.");
    } else {
      button.textContent = t("Open your game");
      $("play-note").textContent = t("Done for today: new dice tomorrow.");
    }
  } else if (guestGame) {
    button.textContent = guestShared ? t("Open your game") : t("Resume");
    $("play-note").textContent = t("Your unranked game of today, kept in this browser.");
  } else {
    button.textContent = t("Play");
    $("play-note").textContent = t("An unranked game: it does not count.");
  }
}

function rememberGuestGame(answer) {
  try {
    localStorage.setItem(GUEST_KEY, JSON.stringify({ day: answer.day, game_id: answer.game_id, url: answer.url, token: answer.token }));
  } catch { /* private mode: the game's address is kept in the address bar all the same */ }
}

function guestGameOf(day) {
  try {
    const found = JSON.parse(localStorage.getItem(GUEST_KEY) || "null");
    return found && found.day === day && found.url && found.game_id ? found : null;
  } catch {
    return null;
  }
}

// Starts (or resumes) the game of ``day`` and opens it; a refusal is told in ``error``.
async function play(day, button, error) {
  error.textContent = "";
  button.disabled = true;
  const answer = await post(`/api/daily/${encodeURIComponent(day)}/play`);
  if (!answer.ok || !answer.data || !answer.data.url) {
    error.textContent = problem(answer, t("The game could not be started ({status}).", { status: answer.status }));
    button.disabled = false;
    return;
  }
  if (!me.account && answer.data.token && daily && answer.data.day === daily.day) rememberGuestGame(answer.data);
  location.assign(answer.data.url);
}

function onPlay() {
  const attempt = daily && daily.attempt;
  if (me.account && attempt && attempt.url) { location.assign(attempt.url); return; }
  if (!me.account && guestGame) { location.assign(guestGame.url); return; }
  play("today", $("play"), $("play-error"));
}

// ------------------------------------------------------------------ your result and sharing
function renderResult() {
  const attempt = daily.attempt;
  if (me.account && attempt && attempt.finished) {
    $("result-heading").textContent = t("Your result");
    const parts = resultParts(attempt, daily.players);
    const result = $("your-result");
    if (result.textContent !== parts.join(" · ")) {
      result.replaceChildren(el("strong", { text: parts[0] }), ...parts.slice(1).map((part) => ` · ${part}`));
    }
    $("share-box").hidden = false;
    $("result-panel").hidden = false;
  } else if (!me.account && guestGame && guestShared) {
    $("result-heading").textContent = t("Your unranked result");
    setText("your-result", t("Your game is over. It does not count on the leaderboard; log in tomorrow to play a ranked one."));
    $("share-box").hidden = false;
    $("result-panel").hidden = false;
  } else {
    $("result-panel").hidden = true;
  }
}

function shareGame() {
  if (me.account && daily.attempt && daily.attempt.finished) return { id: daily.attempt.game_id, token: null };
  if (guestGame) return { id: guestGame.game_id, token: guestGame.token };
  return null;
}

function shareUrl(game) {
  const query = game.token ? `?token=${encodeURIComponent(game.token)}` : "";
  return `/api/daily/share/${encodeURIComponent(game.id)}${query}`;
}

async function share() {
  const game = shareGame();
  if (!game) return;
  $("share-error").textContent = "";
  $("share-status").textContent = "";
  const answer = await getJson(shareUrl(game));
  if (!answer.ok || !answer.data || typeof answer.data.text !== "string") {
    $("share-error").textContent = problem(answer, t("The text to share cannot be made ({status}).", { status: answer.status }));
    return;
  }
  const text = answer.data.text;
  const shown = $("share-text");
  shown.textContent = text;
  shown.hidden = false;
  try {
    await navigator.clipboard.writeText(text);
    $("share-status").textContent = t("Copied: paste it wherever you like.");
  } catch {
    $("share-status").textContent = t("This browser did not let the page copy it: select the text below and copy it yourself.");
  }
}

// A guest's remembered game: finished when its text to share can be made (409 while it runs).
async function checkGuestGame() {
  guestShared = false;
  if (me.account || !guestGame) return;
  const answer = await getJson(shareUrl({ id: guestGame.game_id, token: guestGame.token }));
  guestShared = answer.ok;
}

// ------------------------------------------------------------------ beat the architect
function botName(bot) {
  return el("th", { scope: "row", class: "bot" },
    el("span", { text: bot.name, "data-tip": t("A bot of the server: it played the same dice as everyone today") }),
    " ", el("small", { class: "bot-spec", text: bot.bot || "" }));
}

function botScore(bot) {
  return bot.score === null || bot.score === undefined ? t("still playing") : formatNumber(bot.score);
}

function verdict(attempt, bots) {
  if (!attempt || !attempt.finished) {
    return me.account ? t("Finish your game to see how you did against them.") : "";
  }
  const parts = bots.map((bot) => {
    if (bot.score === null || bot.score === undefined) return t("{bot} is still playing: look again in a few minutes.", { bot: bot.name });
    const gap = attempt.score - bot.score;
    if (gap > 0) return nt("You beat {bot} by {n} point!", "You beat {bot} by {n} points!", gap, { bot: bot.name });
    if (gap < 0) return nt("{bot} beat you by {n} point.", "{bot} beat you by {n} points.", -gap, { bot: bot.name });
    return t("A tie with {bot}.", { bot: bot.name });
  });
  return parts.join(" ");
}

function renderArchitect() {
  const bots = daily.bots || [];
  const attempt = daily.attempt;
  const head = el("tr", {}, el("th", { scope: "col", text: t("Player") }),
    el("th", { scope: "col", class: "number", text: t("Score") }), el("th", { scope: "col", text: t("Builder") }));
  const rows = [];
  if (me.account) {
    const score = !attempt ? t("not played yet") : !attempt.finished ? t("playing") : formatNumber(attempt.score);
    rows.push(el("tr", { class: "me", "data-kind": "you" },
      el("th", { scope: "row", text: t("You ({name})", { name: me.account.name }) }),
      el("td", { class: "number", text: score }),
      el("td", { text: attempt && attempt.finished && attempt.status ? attempt.status : "" })));
  }
  for (const bot of bots) {
    rows.push(el("tr", { "data-kind": "bot", "data-level": bot.level },
      botName(bot),
      el("td", { class: "number", text: botScore(bot) }),
      el("td", { text: bot.status || "" })));
  }
  if (!rows.length) { $("architect-panel").hidden = true; return; }
  $("architect").replaceChildren(el("caption", { class: "visually-hidden", text: t("Your score beside the bots' scores") }),
    el("thead", {}, head), el("tbody", {}, ...rows));
  setText("architect-verdict", verdict(attempt, bots));
  $("architect-panel").hidden = false;
}

// ------------------------------------------------------------------ the streak
function renderStreak() {
  const you = daily.you;
  $("streak-guest").hidden = Boolean(you);
  if (you) {
    const parts = [nt("Current streak: {n} day", "Current streak: {n} days", you.streak),
      nt("best: {n} day", "best: {n} days", you.best_streak)];
    let text = parts.join(" · ");
    if (!(daily.attempt && daily.attempt.finished)) {
      const hint = you.streak
        ? t("finish today's game to keep it going.")
        : t("finish today's game to start one.");
      text += " · " + hint;
    }
    setText("streak", text);
  } else {
    setText("streak", "");
  }
  $("streak-panel").hidden = false;
}

// ------------------------------------------------------------------ a day's leaderboard
function boardDay() {
  return askedDay && DATE.test(askedDay) && (!daily || askedDay !== daily.day) ? askedDay : daily ? daily.day : askedDay;
}

async function loadBoard(append = false) {
  const day = boardDay();
  if (!day) return;
  const offset = append && board ? board.entries.length : 0;
  const answer = await getJson(`/api/daily/${encodeURIComponent(day)}/leaderboard?offset=${offset}&limit=${PAGE}`);
  $("leaderboard-panel").hidden = false;
  if (!answer.ok || !answer.data || !Array.isArray(answer.data.entries)) {
    setText("leaderboard-error", problem(answer, t("This leaderboard cannot be shown ({status}).", { status: answer.status })));
    return;
  }
  setText("leaderboard-error", "");
  const found = answer.data;
  const seen = JSON.stringify(found);
  if (!append && board && seen === boardSeen && board.day === (found.day || day)) return;
  if (!append) boardSeen = seen;
  const before = append && board ? board.entries.length : 0;
  board = {
    day: found.day || day, final: Boolean(found.final), total: found.total || 0,
    entries: append && board ? [...board.entries, ...found.entries] : found.entries, bots: found.bots || [],
  };
  boardPages = append ? boardPages + 1 : 1;
  renderBoard();
  if (append) {
    const first = $("leaderboard").querySelectorAll("tbody tr")[before];
    const link = first && first.querySelector("a");
    if (link) link.focus();
  }
}

function nameCell(entry) {
  return el("th", { scope: "row" }, el("a", { href: `/players/${encodeURIComponent(entry.name)}`, text: entry.name }));
}

function renderBoard() {
  const today = daily && board.day === daily.day;
  $("leaderboard-heading").textContent = today ? t("Today's leaderboard") : t("Leaderboard of {day}", { day: longDay(board.day) });
  $("leaderboard-back").hidden = today || !daily;
  $("leaderboard-note").textContent = board.final
    ? t("This day is over: open any game to watch how it was built.")
    : t("Only the scores show while the day runs: the games open to everyone once the day is over.");
  const head = el("tr", {}, el("th", { scope: "col", class: "number", text: "#" }), el("th", { scope: "col", text: t("Player") }),
    el("th", { scope: "col", class: "number", text: t("Score") }), el("th", { scope: "col", text: t("Builder") }),
    el("th", { scope: "col", class: "number", text: t("Plagues") }), el("th", { scope: "col", class: "number", text: t("Time") }));
  if (board.final) head.append(el("th", { scope: "col", text: t("Game") }));
  const mine = me.account ? me.account.name : null;
  const rows = board.entries.map((entry) => {
    const row = el("tr", { class: entry.name === mine ? "me" : null, "data-name": entry.name },
      el("td", { class: "number", text: formatNumber(entry.place) }),
      nameCell(entry),
      el("td", { class: "number score", text: formatNumber(entry.score) }),
      el("td", { text: entry.status || "" }),
      el("td", { class: "number", text: entry.plagues === null || entry.plagues === undefined ? "" : formatNumber(entry.plagues) }),
      el("td", { class: "number", text: entry.seconds === null || entry.seconds === undefined ? "" : clockText(entry.seconds) }));
    if (board.final) {
      row.append(el("td", {}, entry.game_id
        ? el("a", { href: `/games/${encodeURIComponent(entry.game_id)}`, class: "game-link",
          "aria-label": t("Watch the game of {name}", { name: entry.name }), text: t("watch") })
        : ""));
    }
    return row;
  });
  const columns = board.final ? 7 : 6;
  const empty = board.final ? t("Nobody finished a ranked game on this day.") : t("Nobody has finished today's game yet: be the first!");
  const body = rows.length ? rows : [el("tr", {}, el("td", { colspan: String(columns), class: "empty", text: empty }))];
  $("leaderboard").replaceChildren(
    el("caption", { class: "visually-hidden", text: t("Leaderboard of {day}, best first", { day: longDay(board.day) }) }),
    el("thead", {}, head), el("tbody", {}, ...body));
  $("leaderboard-bots").textContent = !today && board.bots.length
    ? t("The bots on this day: {bots}", { bots: board.bots.map((bot) => `${bot.name} ${botScore(bot)}`).join(" · ") })
    : "";
  $("leaderboard-more").hidden = board.entries.length >= board.total;
  setText("leaderboard-count", board.final
    ? nt("{n} player finished this day.", "{n} players finished this day.", board.total)
    : nt("{n} player has finished so far.", "{n} players have finished so far.", board.total));
}

// ------------------------------------------------------------------ past days
function calendarResult(attempt) {
  if (!attempt) return me.account ? t("not played") : "";
  if (!attempt.finished) return attempt.ranked ? t("started, not finished") : t("practice, not finished");
  const parts = resultParts(attempt, 0).slice(0, 2);
  if (!attempt.ranked) parts.push(t("practice"));
  else if (attempt.place !== null && attempt.place !== undefined) parts.push(t("place {place}", { place: formatNumber(attempt.place) }));
  return parts.join(" · ");
}

function calendarActions(entry, isToday) {
  const when = shortDay(entry.day);
  const actions = [el("a", { href: isToday ? "/daily#leaderboard-panel" : `/daily?day=${encodeURIComponent(entry.day)}#leaderboard-panel`,
    "aria-label": t("Leaderboard of {day}", { day: when }), text: t("leaderboard") })];
  if (isToday) return actions;
  const attempt = me.account ? entry.attempt : null;
  if (attempt && attempt.finished) {
    actions.push(" · ", el("a", { href: attempt.url, "aria-label": t("Your game of {day}", { day: when }), text: t("your game") }));
  } else if (attempt) {
    const resume = el("button", { type: "button", class: "practice", "aria-label": t("Resume your game of {day}", { day: when }), text: t("Resume") });
    resume.addEventListener("click", () => location.assign(attempt.url));
    actions.push(" ", resume);
  } else {
    const practice = el("button", { type: "button", class: "practice", "data-day": entry.day,
      "aria-label": t("Play {day} as practice", { day: when }), text: t("Play as practice") });
    practice.addEventListener("click", () => play(entry.day, practice, $("calendar-error")));
    actions.push(" ", practice);
  }
  return actions;
}

async function loadCalendar() {
  const answer = await getJson(`/api/daily/calendar?days=${CALENDAR_DAYS}`);
  $("calendar-panel").hidden = false;
  if (!answer.ok || !answer.data || !Array.isArray(answer.data.days)) {
    setText("calendar-error", problem(answer, t("The past days cannot be shown ({status}).", { status: answer.status })));
    return;
  }
  setText("calendar-error", "");
  const today = answer.data.today;
  const head = el("tr", {}, el("th", { scope: "col", text: t("Day") }), el("th", { scope: "col", class: "number", text: t("Players") }),
    el("th", { scope: "col", text: t("Your result") }), el("th", { scope: "col", text: t("Open") }));
  const rows = answer.data.days.map((entry) => {
    const isToday = entry.day === today;
    const day = el("th", { scope: "row" }, el("time", { datetime: entry.day, text: shortDay(entry.day) }));
    if (isToday) day.append(" ", el("span", { class: "note", text: t("(today)") }));
    return el("tr", { "data-day": entry.day, class: isToday ? "today" : null },
      day,
      el("td", { class: "number", text: formatNumber(entry.players) }),
      el("td", { text: calendarResult(entry.attempt) }),
      el("td", { class: "actions" }, ...calendarActions(entry, isToday)));
  });
  $("calendar").replaceChildren(el("caption", { class: "visually-hidden", text: t("The last days, newest first") }),
    el("thead", {}, head), el("tbody", {}, ...rows));
}

// ------------------------------------------------------------------ loading, refreshing
async function loadToday() {
  const answer = await getJson("/api/daily");
  if (!answer.ok || !answer.data || !answer.data.day) {
    setText("daily-error", problem(answer, t("The game of the day cannot be shown ({status}).", { status: answer.status })));
    return false;
  }
  setText("daily-error", "");
  const changed = daily !== null && daily.day !== answer.data.day;
  daily = answer.data;
  guestGame = me.account ? null : guestGameOf(daily.day);
  await checkGuestGame();
  renderToday();
  renderResult();
  renderArchitect();
  renderStreak();
  if (changed) loadCalendar();
  return true;
}

async function refresh() {
  if (document.hidden) return;
  const first = daily === null;
  if (!(await loadToday())) return;
  if (first) loadCalendar();
  if (!board || (boardPages <= 1 && !board.final) || (board.day !== boardDay())) loadBoard();
}

async function start() {
  installTooltips();
  mountAccountBar();
  me = await whoAmI();
  $("play").addEventListener("click", onPlay);
  $("share").addEventListener("click", share);
  $("leaderboard-more").addEventListener("click", () => loadBoard(true));
  await refresh();
  if (daily && location.hash === "#leaderboard-panel") $("leaderboard-panel").scrollIntoView();
  setInterval(refresh, REFRESH_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
}

start();
