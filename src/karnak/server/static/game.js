// The game page: renders the seat's view (sent by the server), posts moves, follows live.
import { $, el } from "./dom.js";
import * as aton from "./aton.js";
import * as egyptia from "./egyptia.js";

const params = new URLSearchParams(location.search);
const token = params.get("token");
const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
const replayMode = params.has("replay");
const SEAT_COLOURS = ["#c0392b", "#2764c5", "#262626", "#f2f2f2", "#e0a800"];
const SEAT_INKS = ["#fff", "#fff", "#fff", "#262626", "#262626"];

let view = null;
let selectedProvince = null;
let sending = false;
let socket = null;
let retry = 500;
let countdown = null;

function chip(seat, label) {
  return el("span", { class: "chip", style: `background:${SEAT_COLOURS[seat % 5]};color:${SEAT_INKS[seat % 5]}`, text: label });
}

function title(text) {
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
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
  $("board").innerHTML = view.page ? view.page.board_svg : "";
  if (view.game === "aton") {
    // Aton's page has its own controls (cartouches, clickable squares): see aton.js.
    aton.render(view, { play, takeBack, chip, replayMode });
  } else if (view.game === "egyptia") {
    // Egyptia's page: the seat's own sheet, clickable columns, plagues, hexes: see egyptia.js.
    egyptia.render(view, { play, takeBack, chip, replayMode, rerender: () => render(view, true) });
  } else {
    renderAmunRe();
  }
  renderLog();
}

function phaseName(obs) {
  if (obs.phase_name) return obs.phase_name;
  if (obs.over) return "game over";
  return obs.revealed ? "building" : "choosing columns";
}

function renderAmunRe() {
  // The board is the same drawing for everyone; the provinces this seat can act on are
  // marked here, from its own moves.
  const movable = new Set(view.page ? view.page.provinces_of_moves.filter((p) => p) : []);
  for (const node of document.querySelectorAll(".province")) {
    const name = node.dataset.province;
    if (!movable.has(name)) continue;
    node.classList.add("movable");
    node.setAttribute("tabindex", "0");
    if (name === selectedProvince) node.classList.add("selected");
    const choose = () => { selectedProvince = selectedProvince === name ? null : name; render(view, true); };
    node.addEventListener("click", choose);
    node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") choose(); });
  }
  renderMoves();
  renderHand();
  renderPlayers();
  renderResult();
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

function renderMoves() {
  const box = $("moves");
  box.replaceChildren();
  $("move-error").textContent = "";
  const panel = $("moves-panel");
  if (view.seat === null || replayMode) { panel.hidden = true; return; }
  panel.hidden = false;
  if (view.can_undo) {
    const undo = el("button", { type: "button", class: "undo", id: "undo", text: "Take back my last move" });
    undo.addEventListener("click", takeBack);
    box.append(undo);
  }
  if (!view.legal.length) {
    $("moves-note").textContent = view.status === "finished" ? "The game is over." : "Nothing to decide now: waiting for the others.";
    return;
  }
  const hints = view.page ? view.page.hints : [];
  const places = view.page ? view.page.provinces_of_moves : [];
  $("moves-note").textContent = selectedProvince
    ? `Moves for ${selectedProvince} (click it again to see all):`
    : "Click a glowing province to see only its moves.";
  const groups = new Map();
  view.legal.forEach((move, i) => {
    const place = places[i];
    if (selectedProvince && place && place !== selectedProvince) return;
    const type = move.action.type;
    const key = type === "bid" ? `Bid on ${title(place)}` : title(type.replaceAll("_", " "));
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push([move, hints[i] || ""]);
  });
  for (const [key, moves] of groups) {
    const group = el("div", { class: "move-group" }, el("h3", { text: key }));
    for (const [move, hint] of moves) {
      const label = move.action.type === "bid" ? `${move.action.amount}${move.action.blockade ? " + blockade" : ""}${move.action.overbid ? " + overbid" : ""}` : move.text;
      const button = el("button", { type: "button", class: `move move-${move.action.type}`, "data-move": move.text, title: hint || move.text },
        el("span", { class: "move-text", text: label }), hint ? el("small", { text: ` ${hint}` }) : "");
      button.addEventListener("click", () => play(move.text));
      group.append(button);
    }
    box.append(group);
  }
}

function renderHand() {
  const panel = $("hand-panel");
  if (view.seat === null || !view.page || !view.page.hand) { panel.hidden = true; return; }
  panel.hidden = false;
  const me = view.observation.players[view.seat];
  $("gold").textContent = `Gold: ${me.gold}`;
  const list = $("hand");
  list.replaceChildren();
  for (const card of view.page.hand) {
    list.append(el("li", {}, el("strong", { text: `${card.name}${card.count > 1 ? ` ×${card.count}` : ""}` }), el("span", { text: ` ${card.effect}` })));
  }
  if (!view.page.hand.length) list.append(el("li", { class: "empty", text: "no power cards" }));
}

function renderPlayers() {
  const table = $("players");
  const obs = view.observation;
  table.replaceChildren(el("tr", {}, ...["Player", "Gold", "Cards", "Score", "Provinces"].map((h) => el("th", { text: h }))));
  obs.players.forEach((p, seat) => {
    const info = view.players[seat];
    const name = el("td", {}, chip(seat, p.name));
    if (info.kind === "bot") name.append(el("small", { text: ` bot ${info.bot}` }));
    if (obs.start_player === seat) name.append(el("small", { text: " (start)" }));
    if (view.to_move.includes(seat) && view.status !== "finished") name.append(el("small", { class: "to-move", text: " · to move" }));
    table.append(el("tr", { class: seat === view.seat ? "me" : "" }, name,
      el("td", { text: p.gold }), el("td", { text: p.cards }), el("td", { text: p.score }),
      el("td", { text: p.provinces.map((n) => n[0] + n.slice(1).toLowerCase()).join(", ") || "·" })));
  });
}

function renderResult() {
  const panel = $("result-panel");
  if (!view.result) { panel.hidden = true; return; }
  panel.hidden = false;
  const lines = view.page ? view.page.scoring_lines : [];
  const table = $("result");
  table.replaceChildren(el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Scoring" }),
    ...lines.map((l) => el("th", { text: l.label })), el("th", { text: "Total" })));
  const scorings = view.observation.scorings || [];
  view.players.forEach((p, seat) => {
    scorings.forEach((scoring, index) => {
      const line = scoring[seat];
      table.append(el("tr", {}, el("td", {}, index === 0 ? chip(seat, p.name) : ""),
        el("td", { text: `kingdom ${index + 1}` }),
        ...lines.map((l) => el("td", { text: line[l.key] || "·" })), el("td", { text: line.total })));
    });
    table.append(el("tr", { class: "total-row" }, el("td"), el("td", { text: `game, rank ${view.result.ranks[seat]}` }),
      ...lines.map(() => el("td")), el("td", { class: "final-score", text: view.result.scores[seat] })));
  });
  const names = view.result.winners.map((s) => view.players[s].name).join(" and ");
  $("winners").textContent = view.result.winners.length > 1 ? `Shared victory: ${names}` : `Winner: ${names}`;
}

function renderLog() {
  const list = $("log");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 20;
  list.replaceChildren(...view.log.slice(-300).map((line) => el("li", { text: line })));
  if (atBottom) list.scrollTop = list.scrollHeight;
}

// ------------------------------------------------------------------ moves
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
      selectedProvince = null;
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
