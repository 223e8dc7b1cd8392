// Amun-Re on the game page: provinces marked where the seat can act, its moves as buttons
// (grouped, or only those of a province clicked on the board), its hand, the players and the
// final scoring. The board itself arrives as SVG in the view (public, the same for everyone).
import { $, el } from "./dom.js";

// The province clicked on the board: only its moves are listed (kept between renders).
let selectedProvince = null;
let view = null;
let ctx = null;

function title(text) {
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
}

export function render(next, context) {
  view = next;
  ctx = context;
  renderBoard();
  renderMoves();
  renderHand();
  renderPlayers();
  renderResult();
}

function play(text) {
  selectedProvince = null;
  ctx.play(text);
}

function renderBoard() {
  // The board is the same drawing for everyone; the provinces this seat can act on are
  // marked here, from its own moves.
  const movable = new Set(view.page ? view.page.provinces_of_moves.filter((p) => p) : []);
  for (const node of document.querySelectorAll(".province")) {
    const name = node.dataset.province;
    if (!movable.has(name)) continue;
    node.classList.add("movable");
    node.setAttribute("tabindex", "0");
    if (name === selectedProvince) node.classList.add("selected");
    const choose = () => { selectedProvince = selectedProvince === name ? null : name; ctx.rerender(); };
    node.addEventListener("click", choose);
    node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") choose(); });
  }
}

function renderMoves() {
  const box = $("moves");
  box.replaceChildren();
  $("move-error").textContent = "";
  const panel = $("moves-panel");
  if (view.seat === null || ctx.replayMode) { panel.hidden = true; return; }
  panel.hidden = false;
  if (view.can_undo) {
    const undo = el("button", { type: "button", class: "undo", id: "undo", text: "Take back my last move" });
    undo.addEventListener("click", ctx.takeBack);
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
    const name = el("td", {}, ctx.chip(seat, p.name));
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
      table.append(el("tr", {}, el("td", {}, index === 0 ? ctx.chip(seat, p.name) : ""),
        el("td", { text: `kingdom ${index + 1}` }),
        ...lines.map((l) => el("td", { text: line[l.key] || "·" })), el("td", { text: line.total })));
    });
    table.append(el("tr", { class: "total-row" }, el("td"), el("td", { text: `game, rank ${view.result.ranks[seat]}` }),
      ...lines.map(() => el("td")), el("td", { class: "final-score", text: view.result.scores[seat] })));
  });
  const names = view.result.winners.map((s) => view.players[s].name).join(" and ");
  $("winners").textContent = view.result.winners.length > 1 ? `Shared victory: ${names}` : `Winner: ${names}`;
}
