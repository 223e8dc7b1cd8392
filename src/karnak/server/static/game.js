// The game page: renders the seat's view (sent by the server), posts moves, follows live.
import { $, el } from "./dom.js";
import * as amunre from "./amunre.js";
import * as aton from "./aton.js";
import * as egyptia from "./egyptia.js";

const params = new URLSearchParams(location.search);
const token = params.get("token");
const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
const replayMode = params.has("replay");
const SEAT_COLOURS = ["#c0392b", "#2764c5", "#262626", "#f2f2f2", "#e0a800"];
const SEAT_INKS = ["#fff", "#fff", "#fff", "#262626", "#262626"];

let view = null;
let sending = false;
let socket = null;
let retry = 500;
let countdown = null;
let confirmedAt = null; // the version at which the confirm bar was last offered

function chip(seat, label) {
  return el("span", { class: "chip", style: `background:${SEAT_COLOURS[seat % 5]};color:${SEAT_INKS[seat % 5]}`, text: label });
}

function headers() {
  const h = { "Content-Type": "application/json" };
  if (token) h["X-Karnak-Token"] = token;
  return h;
}

async function fetchView() {
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}`, { headers: headers() });
  const body = await response.json();
  if (!response.ok) { showFatal(body.error || "This game cannot be shown."); return; }
  render(body, true);
}

function showFatal(message) {
  $("title").textContent = "Karnak";
  $("decision").textContent = message;
  $("decision").className = "decision error";
}

// ------------------------------------------------------------------ rendering
function render(next, force = false) {
  if (!force && view && next.version < view.version) return; // an older message arrived late
  view = next;
  const obs = view.observation;
  const you = view.seat;
  document.title = `${view.title}: round ${obs.round} · Karnak`;
  $("title").textContent = `${view.title} · round ${obs.round} · ${phaseName(obs)}`;
  $("status").replaceChildren(
    you === null ? el("span", { text: "spectator" }) : chip(you, `you: ${view.players[you].name}`),
    el("span", { class: "version", text: ` move ${view.version}` }));
  renderDecision();
  if (view.version !== confirmedAt) { $("confirm-bar").hidden = true; confirmedAt = view.version; }
  $("board").innerHTML = view.page ? view.page.board_svg : "";
  // Each game draws its own controls; they share what the page offers them (ctx).
  const ctx = { play, confirm: confirmMove, takeBack, chip, replayMode, rerender: () => render(view, true) };
  if (view.game === "aton") {
    aton.render(view, ctx); // cartouches, clickable squares: see aton.js
  } else if (view.game === "egyptia") {
    egyptia.render(view, ctx); // the seat's sheet, columns, plagues, hexes: see egyptia.js
  } else {
    amunre.render(view, ctx);
  }
  renderGuide();
  renderLog();
}

// The rules panel and the "why" of the decision: the same for every game, from the guide
// the server writes for this seat (view.page.guide).
function renderGuide() {
  const guide = view.page && view.page.guide;
  const why = $("guide-panel");
  const rules = $("rules-panel");
  if (!guide) { why.hidden = true; rules.hidden = true; return; }
  why.hidden = !guide.explain || !guide.explain.length;
  why.replaceChildren(el("h2", { text: "Why it matters" }), ...(guide.explain || []).map((item) =>
    el("div", { class: "guide-item" }, el("h3", { text: item.title }),
      el("ul", {}, ...item.lines.map((line) => el("li", { text: line }))))));
  rules.hidden = !guide.phases || !guide.phases.length;
  rules.replaceChildren(el("h2", { text: "How the game runs" }),
    el("ol", { class: "phases" }, ...(guide.phases || []).map((phase) =>
      el("li", { class: phase.key === guide.phase ? "phase current" : "phase", "aria-current": phase.key === guide.phase ? "step" : null },
        el("strong", { text: phase.name }), ` ${phase.text}`))),
    guide.next ? el("p", { class: "note", text: `Next: ${guide.next}` }) : "");
}

function phaseName(obs) {
  if (obs.phase_name) return obs.phase_name;
  if (obs.over) return "game over";
  return obs.revealed ? "building" : "choosing columns";
}

function renderDecision() {
  const box = $("decision");
  const obs = view.observation;
  const parts = [];
  if (view.status === "finished") parts.push("The game is over.");
  else if (view.your_turn) parts.push(`Your decision: ${obs.decision}`);
  else parts.push(obs.decision);
  if (view.game === "egyptia") {
    const note = egyptia.decisionNote(view);
    if (note) parts.push(note);
  } else if (view.sealed && view.status !== "finished") {
    const waiting = view.to_move.length > 6
      ? `${view.to_move.length} of ${view.players.length} players`
      : view.to_move.map((s) => view.players[s].name).join(", ");
    parts.push(`Sealed step: only who has committed is shown. Still to commit: ${waiting}.`);
  }
  const timeouts = view.timeouts.length;
  if (timeouts) {
    const last = view.timeouts[timeouts - 1];
    parts.push(`The timer ran out ${timeouts} time(s); last for ${view.players[last.seat].name}, whose move the server played.`);
  }
  box.className = view.your_turn ? "decision yours" : "decision";
  box.textContent = parts.join(" ");
  clearInterval(countdown);
  if (view.deadline && view.status !== "finished") {
    const clock = el("span", { class: "clock" });
    box.append(" ", clock);
    const tick = () => {
      const left = Math.max(0, Math.round(view.deadline - Date.now() / 1000));
      clock.textContent = `(${left} s left on the timer)`;
    };
    tick();
    countdown = setInterval(tick, 1000);
  }
}

function renderLog() {
  const list = $("log");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 20;
  list.replaceChildren(...view.log.slice(-300).map((line) => el("li", { text: line })));
  if (atBottom) list.scrollTop = list.scrollHeight;
}

// ------------------------------------------------------------------ moves
// A sealed or irreversible move is played only after a second, explicit step: the page
// shows what is about to be committed, with Confirm and Change. `summary` says it in words.
function confirmMove(text, summary) {
  const bar = $("confirm-bar");
  const yes = el("button", { type: "button", class: "move confirm", id: "confirm-move", "data-move": text }, "Confirm");
  const no = el("button", { type: "button", class: "clear", id: "confirm-change" }, "Change");
  yes.addEventListener("click", () => { bar.hidden = true; play(text); });
  no.addEventListener("click", () => { bar.hidden = true; bar.replaceChildren(); });
  bar.replaceChildren(el("span", { class: "confirm-summary", text: summary }), " ", yes, " ", no);
  bar.hidden = false;
  yes.focus();
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
      $("move-error").textContent = body.error || "The move was refused.";
    }
  } catch (error) {
    $("move-error").textContent = `The server did not answer (${error}); your move may not have arrived. Try again: a repeated move is never played twice.`;
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
    else { await fetchView(); $("move-error").textContent = body.error || "The move cannot be taken back."; }
  } catch (error) {
    $("move-error").textContent = `The server did not answer (${error}).`;
  } finally {
    sending = false;
  }
}

// ------------------------------------------------------------------ live updates
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  socket = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws${query}`);
  socket.onopen = () => { retry = 500; $("connection").textContent = "live"; $("connection").className = "connection live"; };
  socket.onmessage = (event) => render(JSON.parse(event.data));
  socket.onclose = (event) => {
    $("connection").textContent = "reconnecting";
    $("connection").className = "connection";
    if (event.code >= 4400 && event.code < 4500) { showFatal(event.reason || "This link does not open the game."); return; }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  };
}

// ------------------------------------------------------------------ replays
async function startReplay() {
  const bar = $("replay-bar");
  const meta = await (await fetch(`/api/games/${encodeURIComponent(gameId)}/replay`)).json();
  if (meta.error) { showFatal(meta.error); return; }
  bar.hidden = false;
  $("connection").hidden = true;
  const slider = $("replay-step");
  slider.max = meta.steps;
  const show = async (step) => {
    step = Math.max(0, Math.min(meta.steps, step));
    slider.value = step;
    const v = await (await fetch(`/api/games/${encodeURIComponent(gameId)}/replay/${step}`)).json();
    render(v, true);
    $("replay-label").textContent = `move ${step} of ${meta.steps}`;
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  $("replay-start").addEventListener("click", () => show(0));
  $("replay-prev").addEventListener("click", () => show(Number(slider.value) - 1));
  $("replay-next").addEventListener("click", () => show(Number(slider.value) + 1));
  $("replay-end").addEventListener("click", () => show(meta.steps));
  show(meta.steps);
}

if (replayMode) startReplay();
else { fetchView(); connect(); }
