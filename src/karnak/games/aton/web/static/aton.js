// Aton on the game page: cards laid on the cartouches by clicking or dragging, the board's
// squares clicked for removing and placing, the players, the result. The board itself
// arrives as SVG in the view (public, the same for everyone); this module only marks the
// squares of the seat's own legal moves and draws the seat's own hand and sealed cartouches,
// which come from its own view.
import { $, el } from "/static/dom.js";
import { resultHeadline } from "/static/result.js";
import { t, nt } from "/static/i18n.js";

// What each cartouche decides, short (under a cartouche) and in words (its label).
function roles() {
  return [t("points"), t("order · remove"), t("temples"), t("counters")];
}
function roleNames() {
  return [t("points"), t("order and removals"), t("reach"), t("counters")];
}
function groupHeading(type, phase) {
  if (type === "exchange") return t("Exchange your cards");
  if (type === "allocate") return t("Lay out your cards");
  if (type === "place") return t("Place a counter");
  if (type === "remove") return phase === "cleanup" ? t("Take back a counter") : t("Remove a counter");
  return type;
}

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
function inReach(reach) {
  return reach === 1 ? t("temple 1") : t("temples 1 to {reach}", { reach });
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
    if (wins.length) {
      parts.push(t("you score {list}", { list: wins.map((x) => t("{points} against a {card}", { points: 2 * (c1 - x), card: x })).join(", ") }));
    }
    parts.push(t("nothing against a {card}", { card: c1 }));
    const losses = [1, 2, 3, 4].filter((x) => x > c1);
    if (losses.length) {
      parts.push(t("{other} scores {list}", { other, list: losses.map((x) => t("{points} against a {card}", { points: 2 * (x - c1), card: x })).join(", ") }));
    }
    let text = t("Your {card}: {parts}.", { card: c1, parts: parts.join("; ") });
    const best = me.score + 2 * (c1 - 1);
    if (c1 > 1 && best >= view.page.win_points) text += " " + t("{points} points would win at once.", { points: best });
    lines.push(text);
  }
  // cartouche 2: who begins, and the removals (card - 2)
  const c2 = cards[1];
  if (c2 === null) lines.push(null);
  else {
    let order;
    if (c2 === 1) order = t("You play first unless {other} lays a 1 too", { other });
    else if (c2 === 4) order = t("{other} plays first unless they lay a 4 too", { other });
    else order = t("You play first if {other} lays more than {card}, {other} if less", { other, card: c2 });
    order += " " + t("(equal cards: the lower card on cartouche 1 begins).");
    const amount = c2 - 2;
    let removal;
    if (obs.round === 1) removal = t("Round 1: no removals.");
    else if (amount === 0) removal = t("A 2 takes off no counters.");
    else {
      const count = amount > 0 ? amount : 1;
      removal = amount > 0
        ? t("You take off {n} of {other}'s counters ({card} − 2)", { n: count, other, card: c2 })
        : t("A 1 makes you take off 1 of your own counters");
      if (reach !== null) {
        const figures = boardFigures(obs, seat, reach);
        const there = amount > 0 ? figures.theirs : figures.mine;
        removal += " " + (amount > 0
          ? t("in {temples}, where {other} has {n} now", { temples: inReach(reach), other, n: there })
          : t("in {temples}, where you have {n} now", { temples: inReach(reach), n: there }));
        if (there < count) removal += t(": only {n} can go", { n: there });
      }
      const held = obs.kingdom.length;
      removal += t("; they go to the Kingdom of the Dead ({held} of {size} taken)", { held, size: obs.kingdom_squares });
      if (held + count >= obs.kingdom_squares) removal += t(", which fills it: the temples are scored at the end of the round");
      removal += ".";
    }
    lines.push(`${order} ${removal}`);
  }
  // cartouche 3: the temples in reach
  if (reach === null) lines.push(null);
  else {
    const figures = boardFigures(obs, seat, reach);
    const free = nt("{n} empty square", "{n} empty squares", figures.free);
    lines.push(reach === 1
      ? t("Temple 1 only in reach: {free}, {mine} of your counters, {theirs} of {other}'s.", { free, mine: figures.mine, theirs: figures.theirs, other })
      : t("Temples 1 to {reach} in reach: {free}, {mine} of your counters, {theirs} of {other}'s.", { reach, free, mine: figures.mine, theirs: figures.theirs, other }));
  }
  // cartouche 4: the counters placed
  const c4 = cards[3];
  if (c4 === null) lines.push(null);
  else {
    const count = Math.min(c4, me.stock);
    let text = nt("You place {n} counter", "You place {n} counters", count);
    text += " " + (me.stock < c4 ? t("(only {n} left in your stock)", { n: me.stock }) : t("(stock {n})", { n: me.stock }));
    if (reach !== null) {
      const figures = boardFigures(obs, seat, reach);
      text += " " + t("on {n} empty squares in {temples}", { n: figures.free, temples: inReach(reach) });
      if (count > figures.free) text += t(": {n} would find no square and go to the Kingdom of the Dead", { n: count - figures.free });
    }
    lines.push(`${text}.`);
  }
  return lines;
}

function previewList(view, cards, note) {
  const lines = previewLines(view, cards);
  const list = el("ol", { class: "aton-preview", id: "aton-preview", "aria-label": t("what your cartouches will do") });
  const names = roleNames();
  lines.forEach((line, c) => {
    list.append(el("li", { "data-cartouche": c + 1, class: line ? "" : "waiting" },
      el("strong", { text: `${c + 1} · ${names[c]}: ` }),
      line ? line : el("span", { class: "empty", text: t("lay a card here to see what it does") })));
  });
  const box = el("div", { class: "aton-preview-box", "aria-live": "polite" }, el("h3", { text: t("What your lay-out will do") }), list);
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
  panel.replaceChildren(el("h2", { text: t("Your cards and cartouches") }));
  const short = roles();
  const names = roleNames();
  if (sealed) {
    // laid already: the seat's own cartouches (sealed from the other priest until the reveal)
    panel.append(el("p", { class: "note", text: revealed
      ? t("Your cartouches this round (revealed to both priests):")
      : t("You have laid your cards face down; the other priest cannot see them until both have laid.") }));
    panel.append(el("div", { class: "my-cartouches" }, ...sealed.map((card, c) =>
      el("div", { class: "my-cartouche laid", "data-cartouche": c + 1, "aria-label": t("cartouche {c}, {role}: {card}", { c: c + 1, role: names[c], card }) },
        el("span", { class: "slot-role", text: `${c + 1}: ${short[c]}` }),
        el("span", { class: "slot-card", text: card })))));
    if (!revealed) panel.append(previewList(view, sealed, null));
    return;
  }
  const hand = page.hand;
  if (!page.can_allocate) {
    panel.append(el("p", { class: "note", text: hand.length ? t("Your cards: {cards}", { cards: hand.join(" ") }) : t("No cards in hand.") }));
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
    t("Choose a card, then a cartouche (or drag the card there; on a card, keys 1 to 4 lay it on that cartouche). Choose a laid card's cartouche to take it back.") }));
  const cards = el("div", { class: "hand-cards", role: "group", "aria-label": t("your hand") });
  hand.forEach((value, index) => {
    const slot = arrangement.slots.indexOf(index);
    const laid = slot >= 0;
    const chosen = arrangement.selected === index;
    const label = laid ? t("card {value}, on cartouche {c}", { value, c: slot + 1 })
      : chosen ? t("card {value}, chosen: now choose a cartouche", { value }) : t("card {value}", { value });
    const card = el("button", {
      type: "button", class: `hand-card${chosen ? " selected" : ""}`,
      "data-card-index": index, "data-value": value, draggable: laid ? null : "true",
      disabled: laid ? "" : null, "aria-pressed": String(chosen), "aria-label": label,
      "aria-describedby": "allocate-help",
      "data-tip": laid ? t("on cartouche {c}", { c: slot + 1 }) : t("choose it, then a cartouche (or press 1 to 4)"),
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
  const slots = el("div", { class: "my-cartouches", role: "group", "aria-label": t("your cartouches") });
  arrangement.slots.forEach((cardIndex, slot) => {
    const filled = cardIndex !== null;
    const picking = arrangement.selected !== null;
    const where = { c: slot + 1, role: names[slot] };
    let label;
    if (picking && filled) label = t("cartouche {c}, {role}: lay the {card} here (the {there} here changes places)", { ...where, card: hand[arrangement.selected], there: hand[cardIndex] });
    else if (picking) label = t("cartouche {c}, {role}: lay the {card} here", { ...where, card: hand[arrangement.selected] });
    else if (filled) label = t("cartouche {c}, {role}: card {card}; choose to take it back", { ...where, card: hand[cardIndex] });
    else label = t("cartouche {c}, {role}: empty", where);
    const target = el("button", {
      type: "button", class: `my-cartouche${filled ? " filled" : ""}${picking ? " ready" : ""}`,
      "data-cartouche": slot + 1, draggable: filled ? "true" : null, "aria-label": label,
      "data-tip": filled ? t("choose to take the card back") : t("lay the chosen card here"),
    }, el("span", { class: "slot-role", text: `${slot + 1}: ${short[slot]}` }),
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
  const note = t("{other}'s cards stay hidden until both have laid, and whoever plays first may change the temples before your turn.",
    { other: obs.players[1 - view.seat].name });
  panel.append(el("h3", { text: t("Hand") }), cards, el("h3", { text: t("Cartouches") }), slots,
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
    "data-tip": complete ? t("lay these cards face down on cartouches 1 to 4; the other priest sees them only when both have laid")
      : t("lay a card on each of the four cartouches first"),
  }, complete ? t("Lay out {cards} (sealed)", { cards: laidCards.join(" ") }) : t("Lay out (fill all four cartouches)"));
  confirm.addEventListener("click", () => { if (text) ctx.play(text); });
  const clear = el("button", { type: "button", class: "clear", id: "allocate-clear", text: t("Clear"),
    disabled: arrangement.slots.some((s) => s !== null) ? null : "" });
  clear.addEventListener("click", () => {
    arrangement.slots = [null, null, null, null];
    arrangement.selected = null;
    redraw('[data-card-index="0"]');
  });
  row.replaceChildren(confirm, " ", clear);
  if (view.page.can_exchange) {
    const exchange = el("button", { type: "button", id: "exchange", class: "move move-exchange",
      "data-tip": t("once a game: discard these four cards and draw four new ones"), text: t("Exchange cards (once a game)") });
    exchange.addEventListener("click", () => ctx.confirm("exchange",
      t("Hand in your exchange counter (once a game): discard {cards} and draw four new cards?", { cards: hand.join(" ") })));
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
    $("moves-note").textContent = view.status === "finished" ? t("The game is over.") : t("Nothing to decide now: waiting for the other priest.");
    return;
  }
  const hints = view.page ? view.page.hints : [];
  const labels = (view.page && view.page.labels) || [];
  const onBoard = view.page && view.page.squares_of_moves.some((s) => s);
  const layingOut = Boolean(view.page && view.page.can_allocate && view.page.hand && !view.page.cartouches);
  $("moves-note").textContent = onBoard
    ? t("Choose a glowing square on the board, or a move below.")
    : t("Put a card on each cartouche, then lay them out:");
  if (layingOut) box.append(el("div", { class: "cartouche-actions", id: "aton-layout-actions" }));
  const groups = new Map();
  view.legal.forEach((move, i) => {
    const type = move.action.type;
    if (type === "exchange" && layingOut) return; // the lay-out's own exchange button offers it
    if (!groups.has(type)) groups.set(type, []);
    groups.get(type).push([move, hints[i] || "", labels[i] || move.text]);
  });
  for (const [type, moves] of groups) {
    const buttons = moves.map(([move, hint, label]) => {
      // the move in a player's words; its engine text stays in data-move (the API's)
      const button = el("button", { type: "button", class: `move move-${type}`, "data-move": move.text, "data-tip": hint || label },
        el("span", { class: "move-text", text: label }));
      button.addEventListener("click", () => ctx.play(move.text));
      return button;
    });
    const heading = groupHeading(type, view.observation.phase);
    if (type === "allocate") {
      box.append(el("details", { class: "move-group" },
        el("summary", { text: nt("{heading}: {n} arrangement (cartouches 1 to 4)", "{heading}: all {n} arrangements (cartouches 1 to 4)", moves.length, { heading }) }), ...buttons));
    } else {
      box.append(el("div", { class: "move-group" }, el("h3", { text: heading }), ...buttons));
    }
  }
}

// ------------------------------------------------------------------ players, scoring, result
function renderPlayers(view, ctx) {
  const table = $("players");
  const obs = view.observation;
  table.replaceChildren(el("tr", {}, ...[t("Player"), t("Score"), t("Stock"), t("Exchange counter"), t("Cartouches")].map((h) => el("th", { text: h }))));
  obs.players.forEach((p, seat) => {
    const info = view.players[seat];
    const name = el("td", {}, ctx.chip(seat, p.name));
    // a bot by its level ("Medium bot"), the bot behind it on hover (the view's seat.bot)
    if (info.kind === "bot" && info.bot) {
      name.title = info.bot.spec;
      if (info.name !== info.bot.label) name.append(el("small", { text: " " + t("bot {name}", { name: info.bot.label }) }));
    }
    if (obs.order && obs.order[0] === seat && view.status !== "finished") name.append(el("small", { text: " " + t("(first)") }));
    if (view.to_move.includes(seat) && view.status !== "finished") name.append(el("small", { class: "to-move", text: " · " + t("to move") }));
    const laid = p.cartouches ? p.cartouches.join(" ") : p.committed ? t("laid, sealed") : "·";
    table.append(el("tr", { class: seat === view.seat ? "me" : "" }, name,
      el("td", { text: p.score, "data-tip": nt("{n} point", "{n} points", p.score) }),
      el("td", { text: p.stock, "data-tip": nt("{n} counter in the stock", "{n} counters in the stock", p.stock) }),
      el("td", { text: p.exchange_used ? t("used") : t("available") }),
      el("td", { text: laid })));
  });
}

function scoringTable(view, lines, caption) {
  const names = view.observation.players.map((p) => p.name);
  const labels = new Map((view.page ? view.page.scoring_rules : []).map((r) => [r.key, r.label]));
  const table = el("table", { class: "result scoring-table" });
  if (caption) table.append(el("caption", { text: caption }));
  table.append(el("tr", {}, el("th", { text: t("Rule") }), el("th", { text: t("Counters") }),
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
  panel.replaceChildren(el("h2", { text: t("If the temples were scored now") }),
    scoringTable(view, view.page.scoring_now, null),
    el("p", { class: "note", text: t("The temples are scored when the Kingdom of the Dead is full at the end of a round.") }));
  // where our figures come from: behind a link, never in a play tooltip
  const about = view.page.about_figures || [];
  if (about.length) {
    panel.append(el("details", { class: "about-figures", id: "aton-about-figures" },
      el("summary", { text: t("About these figures") }), ...about.map((line) => el("p", { class: "note", text: line }))));
  }
}

function renderResult(view, ctx) {
  const panel = $("result-panel");
  if (!view.result) { panel.hidden = true; return; }
  panel.hidden = false;
  const obs = view.observation;
  const names = view.players.map((p) => p.name);
  const [a, b] = view.result.scores;
  panel.querySelector("h2").textContent = t("Result");
  const atOnce = obs.winner !== null && obs.winner !== undefined ? ` (${obs.win_reason})` : "";
  $("winners").textContent = resultHeadline(view) + atOnce; // ranked as the ratings rank (/static/result.js)
  const table = $("result");
  table.replaceChildren(el("tr", {}, el("th", { text: t("Player") }), el("th", { text: t("Final score") }), el("th", { text: t("Rank") })));
  view.players.forEach((p, seat) => {
    table.append(el("tr", { class: "total-row" }, el("td", {}, ctx.chip(seat, p.name)),
      el("td", { class: "final-score", text: view.result.scores[seat] }), el("td", { text: view.result.ranks[seat] })));
  });
  const wrap = table.parentElement;
  for (const old of wrap.querySelectorAll(".scoring-table")) old.remove();
  if (obs.last_scoring && obs.last_scoring.length) {
    wrap.append(scoringTable(view, obs.last_scoring, t("The last scoring of the temples")));
  }
}
