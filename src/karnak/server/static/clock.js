// The game page's part of the time bank and of abandonment (karnak.server.timebank; the
// rules: docs/players.md, "Time and abandonment"). Hooked by one line in game.js's render.
//
// - Every seat's clock, for everyone (public, as at a chess club): its bank and, while it is
//   to move, the time left before a bot takes the seat. The seat's own row warns when little
//   is left (a guest gets no reminders: this and the banner's countdown are the warning).
// - The seats bots took over: "a bot plays here", and why (left, or time ran out).
// - "Leave the game" for a seat of a running game, with a confirm step (it cannot be
//   undone): a bot plays the seat from then on and this page becomes a spectator's.
//
// Everything shown comes from the view, which holds only public facts about clocks and
// departures. Text goes in through textContent only.
import { t, nt } from "/static/i18n.js";
import { $, el } from "./dom.js";

const HOUR = 3600;
let ticking = null;
let lastView = null;
let page = null;
let spokenStage = 0;

// A duration in words, as the server writes it in reminders: "3 days 4 h", "5 h 12 min".
export function span(seconds) {
  let rest = Math.max(0, Math.round(seconds));
  const days = Math.floor(rest / 86400); rest -= days * 86400;
  const hours = Math.floor(rest / 3600); rest -= hours * 3600;
  const minutes = Math.floor(rest / 60); const secs = rest - minutes * 60;
  if (days) return hours ? nt("{n} day {hours} h", "{n} days {hours} h", days, { hours }) : nt("{n} day", "{n} days", days);
  if (hours) return minutes ? t("{hours} h {minutes} min", { hours, minutes }) : t("{hours} h", { hours });
  if (minutes) return secs ? t("{minutes} min {secs} s", { minutes, secs }) : t("{minutes} min", { minutes });
  return t("{secs} s", { secs });
}

// What is left of a seat's bank at `now` (the wait in progress counted), as the server
// counts it: the time per move first, then the bank.
function bankAt(control, clock, now) {
  if (clock.waiting_since === null) return clock.bank;
  return Math.max(0, clock.bank - Math.max(0, now - clock.waiting_since - control.per_move));
}

// 0: plenty of time; 1: 12 h left (1 h for a short control); 2: 1 h left (10 min).
function stage(control, left) {
  const full = control.per_move + control.bank;
  const [warn, urgent] = full >= 2 * 12 * HOUR ? [12 * HOUR, HOUR] : [Math.min(HOUR, full / 4), Math.min(600, full / 10)];
  return left <= urgent ? 2 : left <= warn ? 1 : 0;
}

function ensurePanel() {
  let panel = $("time-panel");
  if (panel) return panel;
  if (!document.querySelector('link[href="/static/clock.css"]')) {
    document.head.append(el("link", { rel: "stylesheet", href: "/static/clock.css" }));
  }
  panel = el("section", { class: "panel time-panel", id: "time-panel", "aria-labelledby": "time-heading" },
    el("h2", { id: "time-heading" }),
    el("p", { id: "time-rule", class: "note" }),
    el("ul", { id: "time-seats", class: "time-seats" }),
    el("p", { id: "time-warning", class: "time-warning", "aria-live": "polite" }),
    el("div", { id: "leave-box", class: "leave-box" }));
  const players = $("players").closest(".panel");
  players.parentNode.insertBefore(panel, players);
  return panel;
}

// Called with every view the page renders. `shell`: { chip, headers, replayMode }.
export function renderTime(view, shell) {
  lastView = view;
  page = shell;
  const control = view.time_control;
  const replaced = view.players.some((p) => p.replaced);
  const canLeave = view.seat !== null && view.status === "running" && !shell.replayMode;
  const panel = ensurePanel();
  panel.hidden = !control && !replaced && !canLeave;
  $("time-heading").textContent = control ? t("Clocks") : replaced ? t("Seats") : t("Your seat");
  $("time-rule").textContent = control
    ? t("{move} a move, then a bank of {bank} that never grows back; when both are gone, a bot takes the seat.", { move: span(control.per_move), bank: span(control.bank) })
    : "";
  $("time-rule").hidden = !control;
  drawSeats();
  renderLeave(canLeave);
  clearInterval(ticking);
  ticking = control && view.status === "running" ? setInterval(drawSeats, 1000) : null;
}

function drawSeats() {
  const view = lastView;
  const control = view.time_control;
  const now = Date.now() / 1000;
  const list = $("time-seats");
  const rows = [];
  let own = 0;
  for (const player of view.players) {
    if (!player.replaced && !player.clock) continue;
    const you = player.seat === view.seat;
    const row = el("li", { class: "time-seat", "data-seat": player.seat },
      page.chip(player.seat, you ? t("{name} (you)", { name: player.name }) : player.name));
    if (player.replaced) {
      row.classList.add("replaced");
      row.dataset.left = player.left;
      const what = player.left === "timeout" ? t("time ran out: a bot plays here") : t("left the game: a bot plays here");
      row.append(el("span", { class: "time-what", text: what,
        "data-tip": t("A bot (medium level) plays this seat to the end; for ratings the seat counts last") }));
    } else if (player.clock) {
      const clock = player.clock;
      const bank = bankAt(control, clock, now);
      if (clock.runs_out !== null && view.status === "running") {
        const left = Math.max(0, clock.runs_out - now);
        const level = stage(control, left);
        if (you) own = level;
        row.classList.add("moving");
        if (level) row.classList.add(level === 2 ? "urgent" : "warn");
        row.append(el("span", { class: "time-left", text: t("to move: {time} left", { time: span(left) }),
          "data-tip": t("Time before a bot takes the seat: what is left of this move's time, then the bank") }));
      }
      row.append(el("span", { class: "time-bank", text: t("bank {time}", { time: span(bank) }),
        "data-tip": t("What is left of the seat's bank (it never grows back)") }));
    }
    rows.push(row);
  }
  list.replaceChildren(...rows);
  list.hidden = !rows.length;
  // the seat's own warning, said once per stage (a live region)
  const warning = $("time-warning");
  if (own !== spokenStage) {
    spokenStage = own;
    warning.textContent = own ? t("Your time runs low: when it runs out, a bot takes your seat.") : "";
  }
  warning.hidden = !own;
}

// ------------------------------------------------------------------ leaving
let confirming = false;

function renderLeave(canLeave) {
  const box = $("leave-box");
  box.hidden = !canLeave;
  if (!canLeave) { confirming = false; box.replaceChildren(); return; }
  if (confirming) return; // keep the question (and the focus) while the game goes on
  const button = el("button", { type: "button", id: "leave-game", class: "leave",
    "data-tip": t("Leave for good: a bot plays your seat to the end, and you count last for ratings"), text: t("Leave the game") });
  button.addEventListener("click", askToLeave);
  box.replaceChildren(button);
}

function askToLeave() {
  confirming = true;
  const box = $("leave-box");
  const yes = el("button", { type: "button", id: "leave-confirm", class: "leave", text: t("Yes, leave the game") });
  const stay = el("button", { type: "button", id: "leave-cancel", text: t("Stay") });
  const error = el("p", { id: "leave-error", class: "error", role: "alert" });
  yes.addEventListener("click", () => leave(yes, error));
  stay.addEventListener("click", () => { confirming = false; renderLeave(true); $("leave-game").focus(); });
  box.replaceChildren(
    el("p", { id: "leave-question", class: "leave-question",
      text: t("Leave this game for good? A bot (medium level) plays your seat to the end, you count last for ratings, and this page will only let you watch.") }),
    el("div", { class: "leave-buttons" }, yes, stay), error);
  stay.focus();
}

async function leave(button, error) {
  button.disabled = true;
  error.textContent = "";
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(lastView.game_id)}/leave`, {
      method: "POST", headers: page.headers(),
    });
    const answer = await response.json();
    if (!response.ok) { error.textContent = answer.error || t("The game could not be left."); button.disabled = false; return; }
    // a guest has no account by which the server could know them again on the spectator's
    // page: this tab remembers that its person left, for the banner (departure.js)
    try { sessionStorage.setItem(`karnak-left:${answer.game_id}`, "left"); } catch (_) { /* storage off */ }
    location.assign(answer.watch_url); // a spectator's page: the seat's link opens nothing now
  } catch (failure) {
    error.textContent = t("The server did not answer: {error}", { error: String(failure) });
    button.disabled = false;
  }
}
