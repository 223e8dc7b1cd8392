// Aton on the game page: cards laid on the cartouches by clicking or dragging, the board's
// squares clicked for removing and placing, the players, the result. The board itself
// arrives as SVG in the view (public, the same for everyone); this module only marks the
// squares of the seat's own legal moves and draws the seat's own hand and sealed cartouches,
// which come from its own view.
import { $, el } from "/static/dom.js";

const ROLES = ["points", "order · remove", "temples", "counters"];
const GROUPS = { exchange: "Exchange", allocate: "Lay out cards", remove: "Remove a counter", place: "Place a counter" };

// The arrangement being built: which hand card (by index) lies on each cartouche. Kept
// between renders (the other seat committing sends a new view) while the hand is the same.
let arrangement = { key: null, slots: [null, null, null, null], selected: null };

export function render(view, ctx) {
  $("hand-panel").hidden = true;
  const keep = focusKey(); // the panels are built anew: the focus is given back after
  markSquares(view, ctx);
  renderMoves(view, ctx);
  renderCartouches(view, ctx, keep);
  renderPlayers(view, ctx);
  renderScoringNow(view, ctx);
  renderResult(view, ctx);
}

// ------------------------------------------------------------------ the board's squares
// A square played from the keyboard: after the new view arrives, focus goes to the next
// square still to choose, so that a second removal or placement needs no mouse either.
let keyboardSquare = null;

function markSquares(view, ctx) {
  if (!view.page || ctx.replayMode) return;
  const bySquare = new Map();
  view.legal.forEach((move, i) => {
    const square = view.page.squares_of_moves[i];
    if (square) bySquare.set(square, [move, view.page.hints[i] || move.text]);
  });
  const movable = [];
  for (const node of document.querySelectorAll(".aton-board .square")) {
    const found = bySquare.get(node.dataset.square);
    if (!found) continue;
    const [move, hint] = found;
    movable.push(node);
    node.classList.add("movable");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", hint);
    // the seat's own tooltip: what this move changes, then what the square is
    node.dataset.tip = `${hint[0].toUpperCase()}${hint.slice(1)}. ${node.dataset.tip || ""}`.trim();
    node.dataset.move = move.text;
    node.addEventListener("click", () => { keyboardSquare = null; ctx.play(move.text); });
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        keyboardSquare = node.dataset.square;
        ctx.play(move.text);
      }
    });
  }
  if (keyboardSquare && movable.length && !document.querySelector(".aton-board .square:focus")) {
    // the next square after the one just played, in the board's reading order
    const order = (square) => square.split(".").map(Number);
    const [t0, s0] = order(keyboardSquare);
    const next = movable.find((node) => {
      const [t, s] = order(node.dataset.square);
      return t > t0 || (t === t0 && s > s0);
    }) || movable[0];
    next.focus();
  }
  if (!movable.length) keyboardSquare = null;
}

// ------------------------------------------------------------------ the lay-out preview
// What each cartouche will do with the cards as laid, worked out from the seat's own cards
// and the public board only: the other priest's cards are unknown, so cartouches 1 and 2
// are said for each card the other priest might lay.
const ROLE_NAMES = ["points", "order and removals", "reach", "counters"];

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function inReach(reach) {
  return reach === 1 ? "temple 1" : `temples 1 to ${reach}`;
}

function boardFigures(obs, seat, reach) {
  let mine = 0, theirs = 0, free = 0;
  obs.temples.slice(0, reach).forEach((temple) => {
    for (const occupant of temple) {
      if (occupant === seat) mine += 1;
      else if (occupant === 1 - seat) theirs += 1;
      else free += 1;
    }
  });
  return { mine, theirs, free };
}

export function previewLines(view, cards) {
  const obs = view.observation;
  const seat = view.seat;
  const other = obs.players[1 - seat].name;
  const me = obs.players[seat];
  const reach = cards[2];
  const lines = [];
  // cartouche 1: points against each card the other priest may lay
  const c1 = cards[0];
  if (c1 === null) lines.push(null);
  else {
    const parts = [];
    const wins = [1, 2, 3, 4].filter((x) => x < c1);
    if (wins.length) parts.push(`you score ${wins.map((x) => `${2 * (c1 - x)} against a ${x}`).join(", ")}`);
    parts.push(`nothing against a ${c1}`);
    const losses = [1, 2, 3, 4].filter((x) => x > c1);
    if (losses.length) parts.push(`${other} scores ${losses.map((x) => `${2 * (x - c1)} against a ${x}`).join(", ")}`);
    let text = `Your ${c1}: ${parts.join("; ")}.`;
    const best = me.score + 2 * (c1 - 1);
    if (c1 > 1 && best >= view.page.win_points) text += ` ${best} points would win at once.`;
    lines.push(text);
  }
  // cartouche 2: who begins, and the removals (card - 2)
  const c2 = cards[1];
  if (c2 === null) lines.push(null);
  else {
    let order;
    if (c2 === 1) order = `You play first unless ${other} lays a 1 too`;
    else if (c2 === 4) order = `${other} plays first unless they lay a 4 too`;
    else order = `You play first if ${other} lays more than ${c2}, ${other} if less`;
    order += " (equal cards: the lower card on cartouche 1 begins).";
    const amount = c2 - 2;
    let removal;
    if (obs.round === 1) removal = "Round 1: no removals.";
    else if (amount === 0) removal = "A 2 takes off no counters.";
    else {
      const count = amount > 0 ? amount : 1;
      removal = amount > 0
        ? `You take off ${count} of ${other}'s counters (${c2} − 2)`
        : "A 1 makes you take off 1 of your own counters";
      if (reach !== null) {
        const figures = boardFigures(obs, seat, reach);
        const there = amount > 0 ? figures.theirs : figures.mine;
        removal += ` in ${inReach(reach)}, where ${amount > 0 ? other + " has" : "you have"} ${there} now`;
        if (there < count) removal += `: only ${there} can go`;
      }
      const held = obs.kingdom.length;
      removal += `; they go to the Kingdom of the Dead (${held} of ${obs.kingdom_squares} taken)`;
      if (held + count >= obs.kingdom_squares) removal += ", which fills it: the temples are scored at the end of the round";
      removal += ".";
    }
    lines.push(`${order} ${removal}`);
  }
  // cartouche 3: the temples in reach
  if (reach === null) lines.push(null);
  else {
    const figures = boardFigures(obs, seat, reach);
    lines.push(`${reach === 1 ? "Temple 1 only" : `Temples 1 to ${reach}`} in reach: ${plural(figures.free, "empty square")}, ` +
      `${figures.mine} of your counters, ${figures.theirs} of ${other}'s.`);
  }
  // cartouche 4: the counters placed
  const c4 = cards[3];
  if (c4 === null) lines.push(null);
  else {
    const count = Math.min(c4, me.stock);
    let text = `You place ${plural(count, "counter")}`;
    text += me.stock < c4 ? ` (only ${me.stock} left in your stock)` : ` (stock ${me.stock})`;
    if (reach !== null) {
      const figures = boardFigures(obs, seat, reach);
      text += ` on ${figures.free} empty squares in ${inReach(reach)}`;
      if (count > figures.free) text += `: ${count - figures.free} would find no square and go to the Kingdom of the Dead`;
    }
    lines.push(`${text}.`);
  }
  return lines;
}

function previewList(view, cards, note) {
  const lines = previewLines(view, cards);
  const list = el("ol", { class: "aton-preview", id: "aton-preview", "aria-label": "what your cartouches will do" });
  lines.forEach((line, c) => {
    list.append(el("li", { "data-cartouche": c + 1, class: line ? "" : "waiting" },
      el("strong", { text: `${c + 1} · ${ROLE_NAMES[c]}: ` }),
      line ? line : el("span", { class: "empty", text: "lay a card here to see what it does" })));
  });
  const box = el("div", { class: "aton-preview-box", "aria-live": "polite" }, el("h3", { text: "What your lay-out will do" }), list);
  if (note) box.append(el("p", { class: "note", text: note }));
  return box;
}

// ------------------------------------------------------------------ hand and cartouches
function handKey(view) {
  const obs = view.observation;
  return `${view.game_id}:${obs.round}:${view.page.hand.join(",")}:${obs.players[view.seat].exchange_used}`;
}

// Which control of the lay-out has the focus, so that a redraw (the panels are built anew
// on every change) can give it back, or pass it on to the next step.
function focusKey() {
  const active = document.activeElement;
  if (!active || !($("cartouche-panel").contains(active) || $("moves").contains(active))) return null;
  if (active.dataset.cardIndex !== undefined) return `[data-card-index="${active.dataset.cardIndex}"]`;
  if (active.classList.contains("my-cartouche")) return `.my-cartouche[data-cartouche="${active.dataset.cartouche}"]`;
  return active.id ? `#${active.id}` : null;
}

function renderCartouches(view, ctx, wanted = null) {
  const panel = $("cartouche-panel");
  const page = view.page;
  if (view.seat === null || ctx.replayMode || !page || !page.hand || view.status === "finished") {
    panel.hidden = true;
    return;
  }
  const keep = wanted || focusKey();
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
      el("div", { class: "my-cartouche laid", "data-cartouche": c + 1, "aria-label": `cartouche ${c + 1}, ${ROLE_NAMES[c]}: ${card}` },
        el("span", { class: "slot-role", text: `${c + 1}: ${ROLES[c]}` }),
        el("span", { class: "slot-card", text: card })))));
    if (!revealed) panel.append(previewList(view, sealed, null));
    return;
  }
  const hand = page.hand;
  if (!page.can_allocate) {
    panel.append(el("p", { class: "note", text: hand.length ? `Your cards: ${hand.join(" ")}` : "No cards in hand." }));
    return;
  }
  const key = handKey(view);
  if (arrangement.key !== key) arrangement = { key, slots: [null, null, null, null], selected: null };
  const redraw = (focus = null) => renderCartouches(view, ctx, focus);
  const firstFree = () => arrangement.slots.findIndex((s) => s === null);
  const afterLaying = () => {
    const left = hand.findIndex((_, i) => !arrangement.slots.includes(i));
    return left >= 0 ? `[data-card-index="${left}"]` : "#allocate-confirm";
  };
  const put = (cardIndex, slot) => {
    const from = arrangement.slots.indexOf(cardIndex);
    const there = arrangement.slots[slot];
    if (from >= 0) arrangement.slots[from] = there; // moved from another cartouche: swap
    arrangement.slots[slot] = cardIndex;
    arrangement.selected = null;
    redraw(afterLaying());
  };
  const takeBack = (slot) => {
    const cardIndex = arrangement.slots[slot];
    arrangement.slots[slot] = null;
    redraw(`[data-card-index="${cardIndex}"]`);
  };
  panel.append(el("p", { class: "note", id: "allocate-help", text:
    "Choose a card, then a cartouche (or drag the card there; on a card, keys 1 to 4 lay it " +
    "on that cartouche). Choose a laid card's cartouche to take it back." }));
  const cards = el("div", { class: "hand-cards", role: "group", "aria-label": "your hand" });
  hand.forEach((value, index) => {
    const slot = arrangement.slots.indexOf(index);
    const laid = slot >= 0;
    const chosen = arrangement.selected === index;
    const label = laid ? `card ${value}, on cartouche ${slot + 1}`
      : chosen ? `card ${value}, chosen: now choose a cartouche` : `card ${value}`;
    const card = el("button", {
      type: "button", class: `hand-card${chosen ? " selected" : ""}`,
      "data-card-index": index, "data-value": value, draggable: laid ? null : "true",
      disabled: laid ? "" : null, "aria-pressed": String(chosen), "aria-label": label,
      "aria-describedby": "allocate-help",
      "data-tip": laid ? `on cartouche ${slot + 1}` : "choose it, then a cartouche (or press 1 to 4)",
    }, String(value));
    card.addEventListener("click", () => {
      arrangement.selected = chosen ? null : index;
      const free = firstFree();
      redraw(!chosen && free >= 0 ? `.my-cartouche[data-cartouche="${free + 1}"]` : `[data-card-index="${index}"]`);
    });
    card.addEventListener("keydown", (e) => {
      if (/^[1-4]$/.test(e.key)) { e.preventDefault(); put(index, Number(e.key) - 1); }
      else if (e.key === "Escape" && chosen) { arrangement.selected = null; redraw(`[data-card-index="${index}"]`); }
    });
    card.addEventListener("dragstart", (e) => { e.dataTransfer.setData("text/plain", String(index)); });
    cards.append(card);
  });
  const slots = el("div", { class: "my-cartouches", role: "group", "aria-label": "your cartouches" });
  arrangement.slots.forEach((cardIndex, slot) => {
    const filled = cardIndex !== null;
    const picking = arrangement.selected !== null;
    const label = `cartouche ${slot + 1}, ${ROLE_NAMES[slot]}: ` + (picking
      ? `lay the ${hand[arrangement.selected]} here` + (filled ? ` (the ${hand[cardIndex]} here changes places)` : "")
      : filled ? `card ${hand[cardIndex]}; choose to take it back` : "empty");
    const target = el("button", {
      type: "button", class: `my-cartouche${filled ? " filled" : ""}${picking ? " ready" : ""}`,
      "data-cartouche": slot + 1, draggable: filled ? "true" : null, "aria-label": label,
      "data-tip": filled ? "choose to take the card back" : "lay the chosen card here",
    }, el("span", { class: "slot-role", text: `${slot + 1}: ${ROLES[slot]}` }),
    el("span", { class: "slot-card", text: filled ? String(hand[cardIndex]) : "·" }));
    target.addEventListener("click", () => {
      if (arrangement.selected !== null) put(arrangement.selected, slot);
      else if (filled) takeBack(slot);
    });
    target.addEventListener("keydown", (e) => {
      if ((e.key === "Delete" || e.key === "Backspace") && filled) { e.preventDefault(); takeBack(slot); }
      else if (e.key === "Escape" && arrangement.selected !== null) {
        const chosen = arrangement.selected;
        arrangement.selected = null;
        redraw(`[data-card-index="${chosen}"]`);
      }
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
  const laidCards = arrangement.slots.map((i) => (i === null ? null : hand[i]));
  const note = `${obs.players[1 - view.seat].name}'s cards stay hidden until both have laid, ` +
    "and whoever plays first may change the temples before your turn.";
  panel.append(el("h3", { text: "Hand" }), cards, el("h3", { text: "Cartouches" }), slots,
    previewList(view, laidCards, note));
  fillLayoutActions(view, ctx, redraw);
  if (keep) {
    const target = document.querySelector(keep);
    if (target && !target.disabled) target.focus();
  }
}

// The lay-out's buttons (lay out, clear, exchange) live with the moves, which a phone keeps
// in a bar at the bottom of the screen: in reach however far the cartouches are scrolled.
function fillLayoutActions(view, ctx, redraw) {
  const row = $("aton-layout-actions");
  if (!row) return;
  const hand = view.page.hand;
  const laidCards = arrangement.slots.map((i) => (i === null ? null : hand[i]));
  const complete = arrangement.slots.every((s) => s !== null);
  const text = complete ? `allocate ${laidCards.join(" ")}` : null;
  const confirm = el("button", {
    type: "button", id: "allocate-confirm", class: "move move-allocate confirm",
    disabled: complete ? null : "", "data-move": text,
    "data-tip": complete ? "lay these cards face down on cartouches 1 to 4; the other priest sees them only when both have laid"
      : "lay a card on each of the four cartouches first",
  }, complete ? `Lay out ${laidCards.join(" ")} (sealed)` : "Lay out (fill all four cartouches)");
  confirm.addEventListener("click", () => { if (text) ctx.play(text); });
  const clear = el("button", { type: "button", class: "clear", id: "allocate-clear", text: "Clear",
    disabled: arrangement.slots.some((s) => s !== null) ? null : "" });
  clear.addEventListener("click", () => {
    arrangement.slots = [null, null, null, null];
    arrangement.selected = null;
    redraw('[data-card-index="0"]');
  });
  row.replaceChildren(confirm, " ", clear);
  if (view.page.can_exchange) {
    const exchange = el("button", { type: "button", id: "exchange", class: "move move-exchange",
      "data-tip": "once a game: discard these four cards and draw four new ones", text: "Exchange cards (once a game)" });
    exchange.addEventListener("click", () => ctx.confirm("exchange",
      `Hand in your exchange counter (once a game): discard ${hand.join(" ")} and draw four new cards?`));
    row.append(" ", exchange);
  }
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
    box.append(ctx.undoButton());
  }
  if (!view.legal.length) {
    $("moves-note").textContent = view.status === "finished" ? "The game is over." : "Nothing to decide now: waiting for the other priest.";
    return;
  }
  const hints = view.page ? view.page.hints : [];
  const onBoard = view.page && view.page.squares_of_moves.some((s) => s);
  const layingOut = Boolean(view.page && view.page.can_allocate && view.page.hand && !view.page.cartouches);
  $("moves-note").textContent = onBoard
    ? "Choose a glowing square on the board, or a move below."
    : "Put a card on each cartouche, then lay them out:";
  if (layingOut) box.append(el("div", { class: "cartouche-actions", id: "aton-layout-actions" }));
  const groups = new Map();
  view.legal.forEach((move, i) => {
    const type = move.action.type;
    if (type === "exchange" && layingOut) return; // the lay-out's own exchange button offers it
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
      const button = el("button", { type: "button", class: `move move-${type}`, "data-move": move.text, "data-tip": hint || move.text },
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
