// Aton on the game page: cards laid on the cartouches by clicking or dragging, the board's
// squares clicked for removing and placing, the players, the result. The board itself
// arrives as SVG in the view (public, the same for everyone); this module only marks the
// squares of the seat's own legal moves and draws the seat's own hand and sealed cartouches,
// which come from its own view.
import { $, el } from "./dom.js";

const ROLES = ["points", "order · remove", "temples", "counters"];
const GROUPS = { exchange: "Exchange", allocate: "Lay out cards", remove: "Remove a counter", place: "Place a counter" };

// The arrangement being built: which hand card (by index) lies on each cartouche. Kept
// between renders (the other seat committing sends a new view) while the hand is the same.
let arrangement = { key: null, slots: [null, null, null, null], selected: null };

export function render(view, ctx) {
  $("hand-panel").hidden = true;
  markSquares(view, ctx);
  renderCartouches(view, ctx);
  renderMoves(view, ctx);
  renderPlayers(view, ctx);
  renderScoringNow(view, ctx);
  renderResult(view, ctx);
}

// ------------------------------------------------------------------ the board's squares
function markSquares(view, ctx) {
  if (!view.page || ctx.replayMode) return;
  const bySquare = new Map();
  view.legal.forEach((move, i) => {
    const square = view.page.squares_of_moves[i];
    if (square) bySquare.set(square, [move, view.page.hints[i] || move.text]);
  });
  for (const node of document.querySelectorAll(".aton-board .square")) {
    const found = bySquare.get(node.dataset.square);
    if (!found) continue;
    const [move, hint] = found;
    node.classList.add("movable");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", hint);
    node.dataset.move = move.text;
    node.addEventListener("click", () => ctx.play(move.text));
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.play(move.text); }
    });
  }
}

// ------------------------------------------------------------------ hand and cartouches
function handKey(view) {
  const obs = view.observation;
  return `${view.game_id}:${obs.round}:${view.page.hand.join(",")}:${obs.players[view.seat].exchange_used}`;
}

function renderCartouches(view, ctx) {
  const panel = $("cartouche-panel");
  const page = view.page;
  if (view.seat === null || ctx.replayMode || !page || !page.hand || view.status === "finished") {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const obs = view.observation;
  const sealed = page.cartouches;
  const revealed = obs.players[view.seat].cartouches !== null;
  panel.replaceChildren(el("h2", { text: "Your cards and cartouches" }));
  if (sealed) {
    // laid already: the seat's own cartouches (sealed from the other priest until the reveal)
    panel.append(el("p", { class: "note", text: revealed
      ? "Your cartouches this round (revealed to both priests):"
      : "You have laid your cards face down; the other priest cannot see them until both have laid." }));
    panel.append(el("div", { class: "my-cartouches" }, ...sealed.map((card, c) =>
      el("div", { class: "my-cartouche laid", "data-cartouche": c + 1 },
        el("span", { class: "slot-role", text: `${c + 1}: ${ROLES[c]}` }),
        el("span", { class: "slot-card", text: card })))));
    return;
  }
  const hand = page.hand;
  if (!page.can_allocate) {
    panel.append(el("p", { class: "note", text: hand.length ? `Your cards: ${hand.join(" ")}` : "No cards in hand." }));
    return;
  }
  const key = handKey(view);
  if (arrangement.key !== key) arrangement = { key, slots: [null, null, null, null], selected: null };
  const redraw = () => renderCartouches(view, ctx);
  const put = (cardIndex, slot) => {
    const from = arrangement.slots.indexOf(cardIndex);
    const there = arrangement.slots[slot];
    if (from >= 0) arrangement.slots[from] = there; // moved from another cartouche: swap
    arrangement.slots[slot] = cardIndex;
    arrangement.selected = null;
    redraw();
  };
  panel.append(el("p", { class: "note", text:
    "Click a card, then the cartouche to lay it on (or drag it there); click a laid card to take it back. " +
    "Cartouche 1 scores, 2 decides who begins and how many counters go (card − 2), " +
    "3 says which temples are in reach, 4 how many counters you place." }));
  const cards = el("div", { class: "hand-cards", "aria-label": "your hand" });
  hand.forEach((value, index) => {
    const laid = arrangement.slots.includes(index);
    const card = el("button", {
      type: "button", class: `hand-card${arrangement.selected === index ? " selected" : ""}`,
      "data-card-index": index, "data-value": value, draggable: laid ? null : "true",
      disabled: laid ? "" : null, "aria-pressed": String(arrangement.selected === index),
      title: laid ? "on a cartouche" : "click, then click a cartouche",
    }, String(value));
    card.addEventListener("click", () => {
      arrangement.selected = arrangement.selected === index ? null : index;
      redraw();
    });
    card.addEventListener("dragstart", (e) => { e.dataTransfer.setData("text/plain", String(index)); });
    cards.append(card);
  });
  const slots = el("div", { class: "my-cartouches" });
  arrangement.slots.forEach((cardIndex, slot) => {
    const filled = cardIndex !== null;
    const target = el("button", {
      type: "button", class: `my-cartouche${filled ? " filled" : ""}${arrangement.selected !== null ? " ready" : ""}`,
      "data-cartouche": slot + 1, draggable: filled ? "true" : null,
      title: filled ? "click to take the card back" : "lay the chosen card here",
    }, el("span", { class: "slot-role", text: `${slot + 1}: ${ROLES[slot]}` }),
    el("span", { class: "slot-card", text: filled ? String(hand[cardIndex]) : "·" }));
    target.addEventListener("click", () => {
      if (arrangement.selected !== null) put(arrangement.selected, slot);
      else if (filled) { arrangement.slots[slot] = null; redraw(); }
    });
    target.addEventListener("dragstart", (e) => { if (filled) e.dataTransfer.setData("text/plain", String(cardIndex)); });
    target.addEventListener("dragover", (e) => { e.preventDefault(); target.classList.add("over"); });
    target.addEventListener("dragleave", () => target.classList.remove("over"));
    target.addEventListener("drop", (e) => {
      e.preventDefault();
      const index = Number(e.dataTransfer.getData("text/plain"));
      if (Number.isInteger(index) && index >= 0 && index < hand.length) put(index, slot);
    });
    slots.append(target);
  });
  const complete = arrangement.slots.every((s) => s !== null);
  const text = complete ? `allocate ${arrangement.slots.map((i) => hand[i]).join(" ")}` : null;
  const confirm = el("button", {
    type: "button", id: "allocate-confirm", class: "move move-allocate confirm",
    disabled: complete ? null : "", "data-move": text,
  }, complete ? `Lay out ${arrangement.slots.map((i) => hand[i]).join(" ")} (sealed)` : "Lay out (fill all four cartouches)");
  confirm.addEventListener("click", () => { if (text) ctx.play(text); });
  const clear = el("button", { type: "button", class: "clear", id: "allocate-clear", text: "Clear" });
  clear.addEventListener("click", () => { arrangement.slots = [null, null, null, null]; arrangement.selected = null; redraw(); });
  const row = el("div", { class: "cartouche-actions" }, confirm, " ", clear);
  if (page.can_exchange) {
    const exchange = el("button", { type: "button", id: "exchange", class: "move move-exchange",
      title: "once a game: discard these four cards and draw four new ones", text: "Exchange these cards (once a game)" });
    exchange.addEventListener("click", () => ctx.play("exchange"));
    row.append(" ", exchange);
  }
  panel.append(el("h3", { text: "Hand" }), cards, el("h3", { text: "Cartouches" }), slots, row);
}

// ------------------------------------------------------------------ legal moves (fallback)
function renderMoves(view, ctx) {
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
    $("moves-note").textContent = view.status === "finished" ? "The game is over." : "Nothing to decide now: waiting for the other priest.";
    return;
  }
  const hints = view.page ? view.page.hints : [];
  const onBoard = view.page && view.page.squares_of_moves.some((s) => s);
  $("moves-note").textContent = onBoard
    ? "Click a glowing square on the board, or a move below."
    : "Lay your cards on the cartouches above; every arrangement is also listed here.";
  const groups = new Map();
  view.legal.forEach((move, i) => {
    const type = move.action.type;
    if (!groups.has(type)) groups.set(type, []);
    groups.get(type).push([move, hints[i] || ""]);
  });
  for (const [type, moves] of groups) {
    const buttons = moves.map(([move, hint]) => {
      let label = move.text;
      let note = "";
      if (type === "allocate") label = move.action.cards.join(" ");
      else if (type !== "exchange") {
        label = `${move.action.temple}.${move.action.square}`;
        const square = document.querySelector(`.aton-board [data-square="${label}"]`);
        note = square ? ` ${square.dataset.colour}` : "";
      }
      const button = el("button", { type: "button", class: `move move-${type}`, "data-move": move.text, title: hint || move.text },
        el("span", { class: "move-text", text: label }), note ? el("small", { text: note }) : "");
      button.addEventListener("click", () => ctx.play(move.text));
      return button;
    });
    const heading = GROUPS[type] || type;
    if (type === "allocate") {
      box.append(el("details", { class: "move-group" },
        el("summary", { text: `${heading}: all ${moves.length} arrangements (cartouches 1 to 4)` }), ...buttons));
    } else {
      box.append(el("div", { class: "move-group" }, el("h3", { text: heading }), ...buttons));
    }
  }
}

// ------------------------------------------------------------------ players, scoring, result
function renderPlayers(view, ctx) {
  const table = $("players");
  const obs = view.observation;
  table.replaceChildren(el("tr", {}, ...["Player", "Score", "Stock", "Exchange", "Cartouches"].map((h) => el("th", { text: h }))));
  obs.players.forEach((p, seat) => {
    const info = view.players[seat];
    const name = el("td", {}, ctx.chip(seat, p.name));
    if (info.kind === "bot") name.append(el("small", { text: ` bot ${info.bot}` }));
    if (obs.order && obs.order[0] === seat && view.status !== "finished") name.append(el("small", { text: " (first)" }));
    if (view.to_move.includes(seat) && view.status !== "finished") name.append(el("small", { class: "to-move", text: " · to move" }));
    const laid = p.cartouches ? p.cartouches.join(" ") : p.committed ? "laid, sealed" : "·";
    table.append(el("tr", { class: seat === view.seat ? "me" : "" }, name,
      el("td", { text: p.score }), el("td", { text: p.stock }),
      el("td", { text: p.exchange_used ? "used" : "available" }),
      el("td", { text: laid })));
  });
}

function scoringTable(view, lines, caption) {
  const names = view.observation.players.map((p) => p.name);
  const labels = new Map((view.page ? view.page.scoring_rules : []).map((r) => [r.key, r.label]));
  const table = el("table", { class: "result scoring-table" });
  if (caption) table.append(el("caption", { text: caption }));
  table.append(el("tr", {}, el("th", { text: "Rule" }), el("th", { text: "Counters" }),
    ...names.map((n) => el("th", { text: n }))));
  for (const line of lines) {
    table.append(el("tr", { "data-rule": line.rule }, el("td", { text: labels.get(line.rule) || line.rule }),
      el("td", { text: line.counters ? line.counters.join(" : ") : "" }),
      ...line.points.map((p) => el("td", { text: p || "·" }))));
  }
  return table;
}

function renderScoringNow(view, ctx) {
  const panel = $("preview-panel");
  if (!view.page || view.status === "finished") { panel.hidden = true; return; }
  panel.hidden = false;
  panel.replaceChildren(el("h2", { text: "If the temples were scored now" }),
    scoringTable(view, view.page.scoring_now, null),
    el("p", { class: "note", text: "The temples are scored when the Kingdom of the Dead is full at the end of a round." }));
}

function renderResult(view, ctx) {
  const panel = $("result-panel");
  if (!view.result) { panel.hidden = true; return; }
  panel.hidden = false;
  const obs = view.observation;
  const names = view.players.map((p) => p.name);
  const [a, b] = view.result.scores;
  panel.querySelector("h2").textContent = "Result";
  let verdict;
  if (obs.winner !== null && obs.winner !== undefined) {
    verdict = `Winner: ${names[obs.winner]}, at once: ${obs.win_reason} (points ${names[0]} ${a}, ${names[1]} ${b}).`;
  } else if (view.result.winners.length > 1) {
    verdict = `Draw: both priests have ${a} points.`;
  } else {
    const w = view.result.winners[0];
    verdict = `Winner: ${names[w]} with ${view.result.scores[w]} points to ${view.result.scores[1 - w]}.`;
  }
  $("winners").textContent = verdict;
  const table = $("result");
  table.replaceChildren(el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Final score" }), el("th", { text: "Rank" })));
  view.players.forEach((p, seat) => {
    table.append(el("tr", { class: "total-row" }, el("td", {}, ctx.chip(seat, p.name)),
      el("td", { class: "final-score", text: view.result.scores[seat] }), el("td", { text: view.result.ranks[seat] })));
  });
  const wrap = table.parentElement;
  for (const old of wrap.querySelectorAll(".scoring-table")) old.remove();
  if (obs.last_scoring && obs.last_scoring.length) {
    wrap.append(scoringTable(view, obs.last_scoring, "The last scoring of the temples"));
  }
}
