// The game page: renders the seat's view (sent by the server), posts moves, follows live,
// and calls its player back when the turn comes (title, favicon, sound, notification).
import { $, el, icon, installTooltips, refreshTip } from "./dom.js";
import { mountAccountBar, writeHeaders } from "./session.js";
import { receiveChat } from "./chat.js";
import { language, nt, pt, t } from "/static/i18n.js";

const params = new URLSearchParams(location.search);
const token = params.get("token");
const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
const replayMode = params.has("replay");
const SEAT_COLOURS = ["#c0392b", "#2764c5", "#262626", "#f2f2f2", "#e0a800"];
const SEAT_INKS = ["#fff", "#fff", "#fff", "#262626", "#262626"];
// the seats' colours in words, in the reader's language
const SEAT_COLOUR_NAMES = () => [pt("colour", "red"), pt("colour", "blue"), pt("colour", "black"), pt("colour", "white"), pt("colour", "yellow")];
const PHONE = window.matchMedia("(max-width: 700px)");

let view = null;
let sending = false;
let socket = null;
let retry = 500;
let countdown = null;
let confirmedAt = null; // the version at which the confirm bar was last offered
let turnWasYours = null; // null until the first view: a page opened on its turn only marks it
let boardFitted = false; // on a phone: the board shrunk to the screen instead of readable
// The module that draws this game's controls: the game's own script, named by its plugin
// (view.client.script, with its stylesheets), or plain.js for a game without one.
let gameScript = null;
let gameScriptLoading = null;

// A seat's chip: its colour, and its seat number so that colours need not be told apart.
function chip(seat, label) {
  const colour = SEAT_COLOUR_NAMES()[seat % 5];
  return el("span", {
    class: `chip seat-${seat % 5}`, "data-seat": seat,
    style: `background:${SEAT_COLOURS[seat % 5]};color:${SEAT_INKS[seat % 5]}`,
    "data-tip": t("Seat {n} ({colour})", { n: seat + 1, colour }),
  }, el("span", { class: "chip-mark", "aria-hidden": "true", text: String(seat + 1) }), label);
}

function headers() {
  // a seat named by its link's token; else the session's seat, whose writes carry the CSRF token
  return token ? { "Content-Type": "application/json", "X-Karnak-Token": token } : writeHeaders();
}

async function fetchView() {
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}`, { headers: headers() });
  const body = await response.json();
  if (!response.ok) { showFatal(body.error || t("This game cannot be shown.")); return; }
  render(body, true);
}

function showFatal(message) {
  $("title").textContent = "Karnak";
  $("decision").textContent = message;
  $("banner").className = "banner error";
}

// ------------------------------------------------------------------ rendering
// Loads the game's script and stylesheets once (the first view names them), and the first
// drawing waits for both, so the page never shows the game unstyled. A stylesheet that
// fails or takes longer than STYLESHEET_WAIT_MS is not waited for any longer. A game
// without a script of its own, or whose script fails to load or exports no render(view,
// ctx), is drawn by the plain page.
const STYLESHEET_WAIT_MS = 3000;

function loadStylesheet(href) {
  return new Promise((resolve) => {
    const link = el("link", { rel: "stylesheet", href, "data-game-stylesheet": "" });
    const timer = setTimeout(() => { console.warn(`the stylesheet ${href} is slow; drawing without waiting`); resolve(); }, STYLESHEET_WAIT_MS);
    const done = () => { clearTimeout(timer); resolve(); };
    link.addEventListener("load", done, { once: true });
    link.addEventListener("error", () => { console.error(`the stylesheet ${href} did not load`); done(); }, { once: true });
    document.head.append(link);
  });
}

function drawingModule(module) {
  if (!module || typeof module.render !== "function") throw new Error("the game's script exports no render(view, ctx)");
  return module;
}

function loadGameScript(first) {
  if (!gameScriptLoading) {
    const client = first.client || {};
    const sheets = Promise.all((client.stylesheets || []).map(loadStylesheet));
    const plain = () => import("./plain.js").then((module) => ({ module, by: "plain" }));
    const script = client.script
      ? import(client.script).then((module) => ({ module: drawingModule(module), by: "game" }))
        .catch((e) => { console.error(`the game's script ${client.script} failed; drawing the plain page`, e); return plain(); })
      : plain();
    gameScriptLoading = Promise.all([script, sheets]).then(([loaded]) => {
      gameScript = loaded.module;
      document.body.dataset.drawnBy = loaded.by; // which script draws this page: "game" or "plain"
    });
  }
  return gameScriptLoading;
}

function render(next, force = false) {
  if (!force && view && next.version < view.version) return; // an older message arrived late
  view = next;
  if (!gameScript) { loadGameScript(view).then(() => render(view, true)); return; }
  const obs = view.observation;
  const you = view.seat;
  $("title").textContent = [view.title, obs.round === undefined ? "" : t("round {n}", { n: obs.round }), phaseName(obs)].filter(Boolean).join(" · ");
  $("status").replaceChildren(
    you === null ? el("span", { text: t("spectator"), "data-tip": t("You watch: only what every player may see is shown") })
      : chip(you, t("you: {name}", { name: view.players[you].name })),
    el("span", { class: "version", "data-tip": t("How many moves this page has seen"), text: ` ${t("move {n}", { n: view.version })}` }));
  renderDecision();
  if (view.version !== confirmedAt) { $("confirm-bar").hidden = true; confirmedAt = view.version; }
  $("board").innerHTML = view.page ? view.page.board_svg : "";
  // Each game draws its own controls; they share what the page offers them (ctx).
  // (headers: the reader's own, for a game's script that fetches more of what it may see)
  const ctx = { play, confirm: confirmMove, withdrawConfirm, undoButton, takeBack, chip, headers, replayMode, rerender: () => render(view, true) };
  gameScript.render(view, ctx);
  renderGuide();
  renderLog();
  renderReplayLink();
  import("./claim.js").then((m) => m.seatTools(view, token, replayMode)).catch(() => {}); // claim a seat, rematch
  if (view.status === "finished") import("./rating-change.js").then((m) => m.showRatingChange(view)).catch(() => {});
  import("./clock.js").then((m) => m.renderTime(view, { chip, headers, replayMode })).catch((e) => console.error(e)); // clocks, bots' seats, Leave (timebank)
  noticeTurn();
  fitBoards();
  keepFocusInMoves();
  showNewDecisionFromTheTop();
  $("skip-link").href = $("moves-panel").hidden ? "#board" : "#moves-panel";
  $("skip-link").textContent = $("moves-panel").hidden ? t("Skip to the board") : t("Skip to your moves");
  refreshTip();
}

// The rules panel and the "why" of the decision: the same for every game, from the guide
// the server writes for this seat (view.page.guide).
function renderGuide() {
  const guide = view.page && view.page.guide;
  const why = $("guide-panel");
  const rules = $("rules-panel");
  if (!guide) { why.hidden = true; rules.hidden = true; return; }
  why.hidden = !guide.explain || !guide.explain.length;
  why.replaceChildren(el("h2", { text: t("Why it matters") }), ...(guide.explain || []).map((item) =>
    el("div", { class: "guide-item" }, el("h3", { text: item.title }),
      el("ul", {}, ...item.lines.map((line) => el("li", { text: line }))))));
  rules.hidden = !guide.phases || !guide.phases.length;
  // the list goes in the fold's body: the <details> (game.html) stays, open or folded as the
  // reader left it (mountRulesFold)
  $("rules-body").replaceChildren(
    el("ol", { class: "phases" }, ...(guide.phases || []).map((phase) =>
      el("li", { class: phase.key === guide.phase ? "phase current" : "phase", "aria-current": phase.key === guide.phase ? "step" : null },
        el("strong", { text: phase.name }), ` ${phase.text}`))),
    guide.next ? el("p", { class: "note", text: t("Next: {next}", { next: guide.next }) }) : "");
}

// "How the game runs" folds: open the first time, then as the reader last left it (this
// browser's localStorage; a browser that refuses storage gets it open every time).
const RULES_OPEN_KEY = "karnak.rules-open";
function mountRulesFold() {
  const details = $("rules-details");
  if (!details || details.dataset.mounted) return;
  details.dataset.mounted = "1";
  try {
    const stored = localStorage.getItem(RULES_OPEN_KEY);
    if (stored !== null) details.open = stored === "1";
  } catch (_error) { /* no storage: open */ }
  details.addEventListener("toggle", () => {
    try { localStorage.setItem(RULES_OPEN_KEY, details.open ? "1" : "0"); } catch (_error) { /* no storage */ }
  });
}
mountRulesFold();

// The part of the game in words: each game's observation says it (phase_name), as the
// adding-a-game guide asks; a game that does not is named by its round alone.
function phaseName(obs) {
  if (obs.phase_name) return obs.phase_name;
  return obs.over ? t("game over") : "";
}

// What this seat is to do now, in a short sentence (the game's guide says it), or null.
function task() {
  const guide = view.page && view.page.guide;
  return guide && guide.task ? guide.task : null;
}

function isYourTurn() {
  return Boolean(view && view.your_turn && view.status !== "finished" && !replayMode);
}

// The banner: what to do, never who else is still to commit at a sealed step.
function renderDecision() {
  const obs = view.observation;
  const parts = [];
  const todo = task();
  if (view.status === "finished") parts.push(t("The game is over."));
  else if (view.ended) parts.push(t("The game ended unfinished (unrated): {reason}.", { reason: view.ended.reason })); // an idle game expired
  else if (view.sealed) {
    if (view.your_turn) parts.push(todo || t("Your sealed choice: the others see only that you have chosen."));
    else if (view.seat !== null) parts.push(t("Your choice is in: waiting for the others."));
    else parts.push(t("A sealed step: the players choose in secret."));
  } else if (view.your_turn) parts.push(t("Your turn: {task}", { task: todo || obs.decision }));
  else parts.push(obs.decision);
  if (gameScript.decisionNote) { // a game's own word under the banner (Egyptia: the round's column)
    const note = gameScript.decisionNote(view);
    if (note) parts.push(note);
  }
  if (view.timeouts_note) parts.push(view.timeouts_note); // written for its reader (timebank)
  import("./departure.js").then((m) => m.showDepartureAndRematch(view)).catch(() => {}); // a bot took your seat; a rematch
  import("./forced.js").then((m) => m.showForced(view)).catch(() => {}); // a move that needs no click, after a pause
  $("banner").className = isYourTurn() ? "banner yours" : "banner";
  const text = parts.map(sentence).join(" ");
  // a live region: written only when it changes, so that a screen reader says it once
  if ($("decision").textContent !== text) $("decision").textContent = text;
  startClock();
}

// Parts of the banner read as sentences, whoever wrote them ("Choose a column (sealed)").
function sentence(text) {
  return /[.!?:]$/.test(text) ? text : `${text}.`;
}

// ------------------------------------------------------------------ the turn timer
// A countdown beside the banner. On the seat's own turn it warns twice before the time is
// up: a colour, a spoken message (aria-live) and, while the tab is in the background, a
// title that flashes. The thresholds follow the timer's length: 30 s and 10 s of a
// minute or more, proportionally less of a short one.
let warned = { deadline: null, stage: 0 };

function warningStages(timer) {
  return [Math.min(30, timer * 0.5), Math.min(10, timer * 0.2)];
}

function clockText(seconds) {
  const m = Math.floor(seconds / 60), s = seconds % 60;
  if (m >= 48 * 60) return t("{days} d {hours} h", { days: Math.floor(m / 1440), hours: Math.floor((m % 1440) / 60) });
  if (m >= 60) return t("{hours} h {minutes} min", { hours: Math.floor(m / 60), minutes: String(m % 60).padStart(2, "0") });
  return `${m}:${String(s).padStart(2, "0")}`;
}

function startClock() {
  clearInterval(countdown);
  const clock = $("clock");
  if (!view.deadline || view.status === "finished" || replayMode) {
    clock.hidden = true;
    updateTitle(0);
    return;
  }
  clock.hidden = false;
  const timer = view.turn_timer || 60;
  const [first, urgent] = warningStages(timer);
  if (warned.deadline !== view.deadline) warned = { deadline: view.deadline, stage: 0 };
  const tick = () => {
    const left = Math.max(0, Math.round(view.deadline - Date.now() / 1000));
    const mine = isYourTurn();
    const stage = !mine ? 0 : left <= urgent ? 2 : left <= first ? 1 : 0;
    clock.textContent = mine ? t("Your time: {time}", { time: clockText(left) }) : t("Time left: {time}", { time: clockText(left) });
    clock.className = ["clock", "clock warn", "clock urgent"][stage];
    clock.dataset.stage = String(stage);
    // a time bank's end is not a move played for you: a bot takes the seat for good
    const banked = Boolean(view.time_control);
    clock.setAttribute("data-tip", banked
      ? (mine ? t("Your time for this move and your bank; when both run out, a bot plays your seat to the end")
        : t("Time left for the player to move (move time and bank); when it runs out, a bot takes the seat"))
      : mine
        ? t("Time left for your decision; when it runs out, the server plays a move for you")
        : t("Time left for the players to move; when it runs out, the server plays for them"));
    if (stage > warned.stage) {
      warned.stage = stage;
      $("announce").textContent = nt("{n} second left for your move.", "{n} seconds left for your move.", left, { n: left });
    }
    updateTitle(stage ? left : 0);
  };
  tick();
  countdown = setInterval(tick, 1000);
}

// ------------------------------------------------------------------ calling the player back
let flash = false;

function updateTitle(warnLeft) {
  if (!view) return;
  const base = isYourTurn()
    ? t("Your turn · {game} · Karnak", { game: view.title })
    : t("{game}: round {round} · Karnak", { game: view.title, round: view.observation.round });
  flash = !flash;
  document.title = warnLeft && document.hidden && flash ? t("{seconds} s left! · {game}", { seconds: warnLeft, game: view.title }) : base;
}

function noticeTurn() {
  const yours = isYourTurn();
  if (yours && turnWasYours === false) {
    playTone();
    notify();
  }
  turnWasYours = yours;
  updateTitle(0);
  setFavicon(yours);
  const seated = view.seat !== null && !replayMode && view.status !== "finished";
  $("sound-toggle").hidden = !seated;
  $("notify-toggle").hidden = !seated || !("Notification" in window) || Notification.permission !== "default";
}

// The favicon with a red badge (drawn once on a canvas from the site's icon).
let badgeUrl = null;
const plainIcon = "/static/favicon.svg";
const iconImage = new Image();
iconImage.src = plainIcon;

function badgedIcon() {
  if (badgeUrl) return badgeUrl;
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 64;
  const g = canvas.getContext("2d");
  if (iconImage.complete && iconImage.naturalWidth) g.drawImage(iconImage, 0, 0, 64, 64);
  else { g.fillStyle = "#3b2f1c"; g.fillRect(0, 0, 64, 64); }
  g.beginPath();
  g.arc(46, 18, 15, 0, 2 * Math.PI);
  g.fillStyle = "#d0021b";
  g.fill();
  g.lineWidth = 4;
  g.strokeStyle = "#fff";
  g.stroke();
  const url = canvas.toDataURL("image/png");
  if (iconImage.complete && iconImage.naturalWidth) badgeUrl = url; // keep the full one
  return url;
}

function setFavicon(yours) {
  const link = $("favicon");
  const href = yours ? badgedIcon() : plainIcon;
  if (link.getAttribute("href") !== href) {
    link.setAttribute("href", href);
    link.setAttribute("type", yours ? "image/png" : "image/svg+xml");
  }
}
iconImage.addEventListener("load", () => { if (view) { badgeUrl = null; setFavicon(isYourTurn()); } });

// A short two-note tone (Web Audio), off unless the player turns it on (kept in this
// browser). Browsers start sound only after a gesture on the page, so the audio is made
// ready on the player's first click or key.
const SOUND_KEY = "karnak.sound";
let audio = null;

function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch { return false; }
}

function readyAudio() {
  if (!soundOn()) return;
  try {
    if (!audio) audio = new AudioContext();
    if (audio.state === "suspended") audio.resume();
  } catch { audio = null; }
}

function playTone() {
  if (!soundOn()) return;
  readyAudio();
  if (!audio) return;
  const now = audio.currentTime;
  [660, 880].forEach((frequency, i) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, now + i * 0.18);
    gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.18 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.18 + 0.16);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + i * 0.18);
    osc.stop(now + i * 0.18 + 0.17);
  });
}

function showSound() {
  const on = soundOn();
  const button = $("sound-toggle");
  button.textContent = on ? t("Sound on") : t("Sound off");
  button.setAttribute("aria-pressed", on ? "true" : "false");
}

function toggleSound() {
  try { localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch { /* private mode */ }
  showSound();
  if (soundOn()) playTone(); // let the player hear what it will sound like
}

// A browser notification while the tab is in the background, only if the player allowed
// it (the page asks only when the button is pressed). It says only what the seat knows.
function notify() {
  if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
  const todo = task();
  // after a colon a sentence goes on in lower case, but German keeps its nouns' capitals
  const what = todo && language() !== "de" ? `${todo.charAt(0).toLowerCase()}${todo.slice(1)}` : todo;
  const title = what ? t("Your turn in {game}: {task}", { game: view.title, task: what }) : t("Your turn in {game}", { game: view.title });
  try {
    const note = new Notification(title, { tag: `karnak-${gameId}`, icon: plainIcon });
    note.onclick = () => { window.focus(); note.close(); };
  } catch { /* some browsers allow notifications only from a service worker */ }
}

async function askToNotify() {
  try { await Notification.requestPermission(); } catch { /* refused or unsupported */ }
  if (view) noticeTurn();
}

// ------------------------------------------------------------------ the board on a phone
// A board drawn 960 units wide shrinks on a phone until its labels cannot be read. There
// it is drawn at least as wide as makes most of its text 11 px (the box scrolls sideways),
// unless the player asks to fit it to the screen.
const READABLE_PX = 11;

function fitBoards() {
  const phone = PHONE.matches;
  $("board-tools").hidden = !phone || !view || !view.page;
  for (const wrap of document.querySelectorAll(".board-wrap")) wrap.removeAttribute("tabindex");
  for (const svg of document.querySelectorAll(".board-wrap > svg")) {
    svg.style.minWidth = "";
    if (!phone || boardFitted) continue;
    const box = svg.viewBox && svg.viewBox.baseVal;
    if (!box || !box.width) continue;
    const sizes = [...svg.querySelectorAll("text")].slice(0, 400)
      .map((t) => parseFloat(getComputedStyle(t).fontSize)).filter((s) => s > 0).sort((a, b) => a - b);
    if (!sizes.length) continue;
    const common = sizes[Math.floor(sizes.length * 0.1)]; // nine labels in ten reach it
    const width = Math.min(box.width * READABLE_PX / common, box.width * 1.5);
    if (width <= svg.parentElement.clientWidth) continue;
    svg.style.minWidth = `${Math.round(width)}px`;
    svg.parentElement.setAttribute("tabindex", "0"); // a box that scrolls: keys scroll it too
  }
  const button = $("board-fit");
  button.setAttribute("aria-pressed", boardFitted ? "true" : "false");
  button.textContent = boardFitted ? t("Show the board at reading size") : t("Fit the board to the screen");
}

// On a phone the moves panel is a bar at the bottom: the page keeps room for it below the
// board, so the bar never hides the board's last lines.
function keepRoomForTheBar() {
  const panel = $("moves-panel");
  const room = () => {
    const fixed = getComputedStyle(panel).position === "fixed" && !panel.hidden;
    document.body.style.paddingBottom = fixed ? `${panel.offsetHeight + 8}px` : "";
  };
  if ("ResizeObserver" in window) new ResizeObserver(room).observe(panel);
  PHONE.addEventListener("change", () => { room(); fitBoards(); });
  room();
}

function toggleMoves() {
  const body = $("moves-body");
  body.hidden = !body.hidden;
  const button = $("moves-toggle");
  button.setAttribute("aria-expanded", body.hidden ? "false" : "true");
  button.textContent = body.hidden ? t("Show") : t("Hide");
}

// A keyboard player's focus on a move that a new view replaced (or that was disabled while
// the move was sent) returns to the moves panel, not to the top of the page.
let focusWasInMoves = false;
document.addEventListener("focusin", (e) => { focusWasInMoves = $("moves-panel").contains(e.target); });

function keepFocusInMoves() {
  const lost = !document.activeElement || document.activeElement === document.body;
  if (focusWasInMoves && lost && !$("moves-panel").hidden) $("moves-panel").focus({ preventScroll: true });
}

// A new decision (other legal moves) starts at the top of the moves, even where the bar
// had been scrolled down to reach the last one's control (on a phone the bar scrolls).
let decisionKey = null;

function showNewDecisionFromTheTop() {
  const legal = view.legal || [];
  const key = `${view.game_id}|${legal.length}|${legal.length ? legal[0].text : ""}|${legal.length ? legal[legal.length - 1].text : ""}`;
  if (key !== decisionKey) $("moves-panel").scrollTop = 0;
  decisionKey = key;
}

function renderLog() {
  const list = $("log");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 20;
  list.replaceChildren(...view.log.slice(-300).map((line) => el("li", { text: line })));
  if (atBottom) list.scrollTop = list.scrollHeight;
}

// A finished game points to its replay from the result.
function renderReplayLink() {
  const link = $("replay-link");
  link.hidden = replayMode || view.status !== "finished";
  if (!link.hidden && !link.firstChild) {
    link.append(el("a", { href: `/games/${encodeURIComponent(gameId)}?replay=1`, id: "watch-replay" },
      t("Watch the replay, move by move")));
  }
}

// ------------------------------------------------------------------ moves
// A sealed or irreversible move is played only after a second, explicit step: the page
// shows what is about to be committed, with Confirm and Change. `summary` says it in words.
// `back` (an element id) takes the focus on Change: the control the move was picked with.
function confirmMove(text, summary, back = null) {
  const bar = $("confirm-bar");
  const yes = el("button", { type: "button", class: "move confirm", id: "confirm-move", "data-move": text }, t("Confirm"));
  const no = el("button", { type: "button", class: "clear", id: "confirm-change" }, t("Change"));
  yes.addEventListener("click", () => { bar.hidden = true; play(text); });
  no.addEventListener("click", () => {
    withdrawConfirm();
    const control = back && $(back);
    if (control) control.focus();
  });
  bar.replaceChildren(el("span", { class: "confirm-summary", text: summary }), " ", yes, " ", no);
  bar.hidden = false;
  $("moves-body").hidden = false;
  yes.focus();
}

// The "take back" button every game offers where the undo policy allows (view.can_undo).
function undoButton() {
  const undo = el("button", { type: "button", class: "undo", id: "undo", text: t("Take back my last move") });
  undo.addEventListener("click", takeBack);
  return undo;
}

// A control changed after its move was offered for confirmation: the offer is stale and is
// withdrawn, so that Confirm only ever sends what the controls show.
function withdrawConfirm() {
  const bar = $("confirm-bar");
  bar.hidden = true;
  bar.replaceChildren();
}

async function play(text) {
  if (sending || !view) return;
  sending = true;
  for (const b of document.querySelectorAll("button.move")) b.disabled = true;
  try {
    const request = () => fetch(`/api/games/${encodeURIComponent(gameId)}/actions`, {
      method: "POST", headers: headers(), body: JSON.stringify({ version: view.version, action: text }),
    });
    let response;
    try {
      response = await request();
    } catch (error) {
      // A connection the server had just closed: sending again is safe, since the server
      // answers a repeated move (same version, same move) as already played.
      await new Promise((resolve) => setTimeout(resolve, 300));
      response = await request();
    }
    const body = await response.json();
    if (response.ok) {
      render(body.view);
    } else {
      await fetchView();
      $("move-error").textContent = body.error || t("The move was refused.");
    }
  } catch (error) {
    $("move-error").textContent = t("The server did not answer ({error}); your move may not have arrived. Try again: a repeated move is never played twice.", { error: String(error) });
    for (const b of document.querySelectorAll("button.move")) b.disabled = false;
  } finally {
    sending = false;
  }
}

async function takeBack() {
  if (sending || !view) return;
  sending = true;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/undo`, {
      method: "POST", headers: headers(), body: JSON.stringify({ version: view.version }),
    });
    const body = await response.json();
    if (response.ok) render(body.view);
    else { await fetchView(); $("move-error").textContent = body.error || t("The move cannot be taken back."); }
  } catch (error) {
    $("move-error").textContent = t("The server did not answer ({error}).", { error: String(error) });
  } finally {
    sending = false;
  }
}

// ------------------------------------------------------------------ live updates
let deleted = false;

/** An administrator deleted the game: say so and stop listening (it will not come back). */
function gameDeleted(reason) {
  deleted = true;
  showFatal(reason ? t("This game was deleted by an administrator: {reason}.", { reason }) : t("This game was deleted by an administrator."));
  $("connection").textContent = pt("connection", "closed");
  $("connection").className = "connection";
  $("moves")?.replaceChildren();
  socket.close();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  socket = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws${query}`);
  socket.onopen = () => { retry = 500; $("connection").textContent = pt("connection", "live"); $("connection").className = "connection live"; };
  socket.onmessage = (event) => {
    const m = JSON.parse(event.data);
    if (m.event === "chat") receiveChat(m);
    else if (m.event === "deleted") gameDeleted(m.reason);
    else if (!m.event) render(m);
  };
  socket.onclose = (event) => {
    if (deleted) return;
    $("connection").textContent = pt("connection", "reconnecting");
    $("connection").className = "connection";
    if (event.code >= 4400 && event.code < 4500) { showFatal(event.reason || t("This link does not open the game.")); return; }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  };
}

// ------------------------------------------------------------------ replays
const ICONS = {
  "replay-start": ["M6 5h2v14H6z", "M19 5v14L9 12z"],
  "replay-prev": ["M17 5v14L6 12z"],
  "replay-next": ["M7 5v14l11-7z"],
  "replay-end": ["M16 5h2v14h-2z", "M5 5v14l10-7z"],
};

async function startReplay() {
  const bar = $("replay-bar");
  for (const [id, paths] of Object.entries(ICONS)) $(id).replaceChildren(icon(paths));
  const meta = await (await fetch(`/api/games/${encodeURIComponent(gameId)}/replay`)).json();
  if (meta.error) { showFatal(meta.error); return; }
  bar.hidden = false;
  $("connection").hidden = true;
  const slider = $("replay-step");
  slider.max = meta.steps;
  let shown = -1;
  const show = async (step) => {
    step = Math.max(0, Math.min(meta.steps, step));
    slider.value = step;
    if (step === shown) return;
    shown = step;
    const v = await (await fetch(`/api/games/${encodeURIComponent(gameId)}/replay/${step}`)).json();
    if (shown !== step) return; // a later step was asked for meanwhile
    render(v, true);
    $("replay-label").textContent = t("move {step} of {steps}", { step, steps: meta.steps });
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  $("replay-start").addEventListener("click", () => show(0));
  $("replay-prev").addEventListener("click", () => show(Number(slider.value) - 1));
  $("replay-next").addEventListener("click", () => show(Number(slider.value) + 1));
  $("replay-end").addEventListener("click", () => show(meta.steps));
  // The arrow keys step through the replay (the slider takes them itself when focused).
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target === slider) return;
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const step = Number(slider.value);
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: meta.steps }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  show(0); // a replay opens at the start (move 0), as a game does
}

// ------------------------------------------------------------------ start
installTooltips();
showSound();
$("sound-toggle").addEventListener("click", toggleSound);
$("notify-toggle").addEventListener("click", askToNotify);
$("moves-toggle").addEventListener("click", toggleMoves);
$("board-fit").addEventListener("click", () => { boardFitted = !boardFitted; fitBoards(); });
document.addEventListener("pointerdown", readyAudio, { once: true });
document.addEventListener("keydown", readyAudio, { once: true });
document.addEventListener("visibilitychange", () => { if (view) updateTitle(0); });
keepRoomForTheBar();
mountAccountBar();
if (replayMode) startReplay();
else { fetchView(); connect(); }
