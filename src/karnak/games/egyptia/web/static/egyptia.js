// Egyptia on the game page. The resource board (dice, plagues, Pharaoh cards) arrives as one
// public SVG; the seat's own sheet arrives as SVG in its own page data (only the seat sees
// it live during a round). This module marks what the seat can click (columns, plagues,
// hexes, ships), offers the step's choices (payments, the Burial Mound's reward), and draws
// the other builders as small cards from the observation (sheets as last published). A
// finished game's replay shows every builder's full sheet (view.page.replay).
//
// At a crowd table (view.crowd: more than 12 seats) the view carries the other builders in
// short (each one's brief: score, plagues, buildings, ships), not their sheets: the page
// lists them compactly and fetches one builder's sheet, drawn, when it is opened
// (GET /api/games/{id}/sheets/{seat}), again after each reveal or round's end.
//
// Every decision can be made from the keyboard: the board's columns, plagues, hexes and
// ships are focusable buttons, and the moves panel offers the same choices (the hexes of a
// picked building too). A redraw (a new view, or a pick) keeps the keyboard's place, or
// moves it to the step's first control when the old one is gone.
import { $, el } from "/static/dom.js";
import { t, nt } from "/static/i18n.js";
import { resultHeadline } from "/static/result.js";

const RESOURCES = ["grain", "diamond", "stone", "favor"];
const SHOWN_PAYMENTS = 6;
const SVG_NS = "http://www.w3.org/2000/svg";

// What the seat has picked on the page but not yet played; forgotten when the step changes.
let pick = { key: null, building: null, hex: null, ship: null, hailfire: false };
// The builders' grid: order, filter and the cards opened (kept between renders); at a crowd
// table the builder whose sheet is open (a seat, or null).
const grid = { sort: "seat", filter: "", open: new Set(), sheet: null };
// The sheet fetched for a crowd table's open builder: for which seat and which publication
// (key), and what came (the answer, or an error), or that it is on its way.
let fetched = { seat: null, key: null, data: null, error: null, loading: false, node: null };
const miniMaps = new Map();

// ------------------------------------------------------------------ keyboard focus
// How the player last acted: a redraw moves the focus only for someone on the keyboard
// (a mouse user's page must not jump).
let lastInput = "pointer";
// The control the keyboard was on, as a selector that finds it again after a redraw.
let lastFocus = null;
// Where the focus goes after the next redraw (set when a pick opens new choices).
let focusNext = null;
const AREAS = ["moves", "sheet", "board", "builders-panel", "preview-panel"];
const KEYS = ["data-move", "data-building", "data-hex", "data-column", "data-plague", "data-ship", "data-seat"];

function selectorOf(node) {
  if (!node || !node.closest) return null;
  const area = AREAS.find((id) => node.closest(`#${id}`));
  if (!area) return null;
  if (node.id) return `#${node.id}`;
  const key = KEYS.find((k) => node.hasAttribute(k));
  if (!key) return null;
  return `#${area} ${node.tagName.toLowerCase()}.${[...node.classList][0] || "legal"}[${key}="${CSS.escape(node.getAttribute(key))}"]`;
}

addEventListener("keydown", (e) => { if (!e.altKey && !e.ctrlKey && !e.metaKey) lastInput = "keyboard"; }, true);
addEventListener("pointerdown", () => { lastInput = "pointer"; }, true);
addEventListener("focusin", (e) => { const key = selectorOf(e.target); if (key) lastFocus = key; });

// The first control of the step, where the keyboard goes when its place is gone.
const FIRST = [
  "#moves button.hex-choice", "#moves button.move-hailfire", "#ship-confirm", "#moves button.move-choose",
  "#moves button.move-plague", "#moves button.move-pay", "#moves button.pick-building", "#moves button.move-gain",
  "#moves button.use-ship",
];

function restoreFocus() {
  const wanted = focusNext;
  focusNext = null;
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected;
  if (!wanted && (!lost || lastInput !== "keyboard")) return;
  const candidates = [wanted, lost ? lastFocus : null, ...FIRST].filter(Boolean);
  for (const selector of candidates) {
    const node = document.querySelector(selector);
    if (!node || node.disabled || !node.getClientRects().length) continue;
    node.focus();
    if (document.activeElement === node) return; // (a board element no longer playable is not focusable)
  }
}

export function render(view, ctx) {
  document.body.classList.add("egyptia");
  $("hand-panel").hidden = true;
  $("cartouche-panel").hidden = true;
  const players = $("players").closest(".panel");
  if (players) players.hidden = true;
  const replay = view.page && view.page.replay;
  if (replay) view = withTrueSheets(view, replay);
  const obs = view.observation;
  const me = view.seat === null ? null : obs.players[view.seat];
  const key = `${view.game_id}:${obs.round}:${obs.you ? obs.you.stage : "-"}`;
  if (pick.key !== key) {
    pick = { key, building: null, hex: null, ship: null, hailfire: false };
    // a new step: on a phone the moves bar scrolls, and its new choices start at its top
    $("moves-panel").scrollTop = 0;
  }
  if (replay) renderReplay(view, replay);
  else renderSheet(view, ctx, me);
  markBoard(view, ctx, me);
  renderControls(view, ctx, me);
  renderStandings(view, ctx);
  renderBuilders(view, ctx);
  renderResult(view, ctx);
  restoreFocus();
}

// A redraw after a pick: the focus goes to the choices the pick opened.
function rerenderTo(ctx, selector) {
  focusNext = selector;
  ctx.rerender();
}

// A line for the banner at the top: the round's progress in numbers (fine with 99 builders).
export function decisionNote(view) {
  const page = view.page;
  if (!page || view.status === "finished") return "";
  const s = page.stages;
  const total = view.observation.players.length;
  if (total === 1) return "";
  if (!view.observation.revealed) {
    return t("Sealed: {n} of {total} builders have chosen a column; the choices show when all have chosen.", { n: s.chosen, total });
  }
  return t("{n} of {total} builders are done this round; what each builds shows at the round's end.", { n: s.done, total });
}

function legalTexts(view) { return new Set(view.legal.map((m) => m.text)); }

function clickable(node, label, handler) {
  node.classList.add("legal");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", handler);
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); handler(); }
  });
}

// ------------------------------------------------------------------ the resource board
function markBoard(view, ctx, me) {
  if (me && me.column) {
    const chosen = document.querySelector(`.egyptia-board .column[data-column="${me.column}"]`);
    if (chosen) chosen.classList.add("chosen");
  }
  // The Pharaoh cards' tips (public on the board) with what each gives this seat's city now.
  if (me) {
    for (const node of document.querySelectorAll(".egyptia-board .pharaoh-card[data-card]")) {
      const line = me.score.cards.find((c) => c.card === node.dataset.card);
      if (!line) continue;
      const parts = line.parts.filter((p) => p);
      const detail = parts.length > 1 ? ` (${parts.join(" + ")})` : "";
      const now = nt("Your city now: {n} point{detail}.", "Your city now: {n} points{detail}.", line.points, { n: line.points, detail });
      node.setAttribute("data-tip", `${node.getAttribute("data-tip")} ${now}`);
    }
  }
  if (!view.page || ctx.replayMode || !view.page.moves) return;
  const moves = view.page.moves;
  for (const resource of moves.choose) {
    const node = document.querySelector(`.egyptia-board .column[data-column="${resource}"]`);
    if (!node) continue;
    const column = view.page.columns.find((c) => c.resource === resource);
    const label = columnLabel(view.page, column);
    node.dataset.move = `choose ${resource}`;
    clickable(node, label, () => chooseColumn(view, ctx, resource, label));
  }
  const byPlague = new Map();
  for (const p of moves.plagues) {
    if (!byPlague.has(p.plague)) byPlague.set(p.plague, []);
    byPlague.get(p.plague).push(p);
  }
  for (const [name, options] of byPlague) {
    const node = document.querySelector(`.egyptia-board .plague[data-plague="${name}"]`);
    if (!node) continue;
    clickable(node, t("Suffer {plague}: {effect}", { plague: options[0].title, effect: options[0].effect }), () => choosePlague(options, ctx));
  }
}

function choosePlague(options, ctx) {
  if (options.length === 1 && !options[0].ship) { ctx.play(options[0].text); return; }
  pick.hailfire = true; // Hail-fire: which ship is lost is asked next
  rerenderTo(ctx, "#moves button.move-hailfire");
}

// ------------------------------------------------------------------ the seat's own sheet
// The sheet too is drawn anew only when it or what can be clicked on it changes (see
// renderControls).
let sheetDrawn = null;

function renderSheet(view, ctx, me) {
  const box = $("sheet");
  const svg = view.page && view.page.sheet_svg;
  if (!svg) { box.hidden = true; box.replaceChildren(); sheetDrawn = null; return; }
  box.hidden = false;
  const sig = JSON.stringify([svg, pick, ctx.replayMode, view.page.moves]);
  if (sig === sheetDrawn && box.querySelector("svg.egyptia-sheet")) return;
  sheetDrawn = sig;
  box.innerHTML = svg;
  if (ctx.replayMode || !view.page.moves) return;
  const moves = view.page.moves;
  // hexes: glowing where the picked building (or any offered building) may go
  const byHex = new Map();
  for (const b of moves.buildings) {
    for (const spot of b.hexes) {
      if (pick.building && pick.building !== b.building) continue;
      if (!byHex.has(spot.hex)) byHex.set(spot.hex, []);
      byHex.get(spot.hex).push([b, spot]);
    }
  }
  for (const node of box.querySelectorAll(".hex[data-hex]")) {
    const hex = node.dataset.hex;
    if (hex === pick.hex) node.classList.add("selected");
    const options = byHex.get(hex);
    if (!options) continue;
    const label = pick.building
      ? t("Build a {building} on {hex} for {cost} (your cards {change})", { building: options[0][0].title, hex, cost: options[0][1].cost, change: signed(options[0][1].cards) })
      : t("Build on {hex}: {buildings}", { hex, buildings: options.map(([b]) => b.title).join(", ") });
    if (pick.building) node.dataset.move = options[0][1].text;
    clickable(node, label, () => {
      if (pick.building) { ctx.play(options[0][1].text); return; }
      pick.hex = pick.hex === hex ? null : hex;
      if (options.length === 1 && pick.hex) { ctx.play(options[0][1].text); return; }
      rerenderTo(ctx, "#moves button.pick-building");
    });
  }
  for (const ship of moves.ships) {
    const node = box.querySelector(`.ship[data-ship="${ship.ship}"]`);
    if (!node) continue;
    clickable(node, t("Use ship {n} for {gives} (once a game)", { n: ship.ship, gives: ship.gives }), () => {
      pick.ship = ship.ship;
      rerenderTo(ctx, "#ship-confirm");
    });
  }
}

// ------------------------------------------------------------------ a finished game's replay
// The replay of a finished game may show what was private while it ran: each builder's
// sheet as it truly stood at that move. The builders' cards and standings use those sheets
// too; the best ones (every one at a small table) come as full drawings.
const PUBLIC_STAGE = { choose: "choosing", chosen: "chosen", done: "done" };

function withTrueSheets(view, replay) {
  const players = view.observation.players.map((p) => {
    const b = replay.builders[p.seat];
    return b ? { ...p, sheet: b.sheet, score: b.score, column: b.column, stage: PUBLIC_STAGE[b.stage] || "building" } : p;
  });
  return { ...view, observation: { ...view.observation, players } };
}

function renderReplay(view, replay) {
  const box = $("sheet");
  sheetDrawn = null;
  box.hidden = false;
  box.setAttribute("aria-label", t("Every builder's sheet"));
  const drawn = replay.builders.filter((b) => b.svg);
  const all = replay.builders.length;
  const note = drawn.length === all
    ? t("Each sheet as it stood at this move, with what the builder had done this round (private while the game ran).")
    : t("The {n} best sheets of {all} as they stood at this move, drawn in full; every builder's card below shows its true sheet too.", { n: drawn.length, all });
  const figures = drawn.map((b) => {
    const picture = el("div", { class: "replay-svg" });
    picture.innerHTML = b.svg;
    const said = [`${b.name}: ${b.stage_name}`];
    if (b.column) said.push(t("column {column}", { column: resourceName(view.page, b.column) }));
    if (b.notes.length) said.push(t("this round: {notes}", { notes: b.notes.join("; ") }));
    return el("figure", { class: "replay-sheet", "data-seat": b.seat },
      el("figcaption", {}, el("strong", { text: `${said[0]}` }), said.length > 1 ? ` · ${said.slice(1).join(" · ")}` : ""),
      picture);
  });
  box.replaceChildren(el("div", { class: "panel replay-head" },
    el("h2", { text: t("Every builder's sheet · round {n}", { n: replay.round }) }), el("p", { class: "note", text: note })), ...figures);
}

// ------------------------------------------------------------------ the step's controls
// The column choice is sealed and cannot be taken back at a table of several builders: it is
// played after a confirm step there (alone, it is played at once and may be taken back).
function chooseColumn(view, ctx, resource, label) {
  const text = `choose ${resource}`;
  if (view.players.length > 1) ctx.confirm(text, t("{choice} (sealed: nobody sees it until all have chosen)", { choice: label }));
  else ctx.play(text);
}

// A move's button: its label in a player's words; the engine's text (what the terminal types)
// stays in data-move.
function moveButton(text, label, detail, ctx, extra = "", action = null) {
  const button = el("button", { type: "button", class: `move ${extra}`.trim(), "data-move": text, title: detail ? `${label}: ${detail}` : label },
    el("span", { class: "move-text", text: label }), detail ? el("small", { text: ` ${detail}` }) : "");
  button.addEventListener("click", action || (() => ctx.play(text)));
  return button;
}

// The moves panel is drawn anew only when what it offers changes: at a big table the others'
// progress arrives many times a second, and a button replaced under a finger or the
// keyboard would lose the tap or the focus. (Buttons left disabled by a refused move are
// drawn anew.)
let movesDrawn = null;

function renderControls(view, ctx, me) {
  const target = $("moves");
  const box = el("div");
  $("move-error").textContent = "";
  buildControls(view, ctx, me, box);
  const you = view.observation.you || {};
  const sig = JSON.stringify([view.game_id, view.seat, view.status, ctx.replayMode, view.can_undo,
    view.legal.map((m) => m.text), view.page && view.page.moves, pick, you.stage, you.restriction,
    you.pending, me && me.score.total, view.observation.round]);
  if (sig === movesDrawn && target.firstChild && !target.querySelector("button:disabled")) return;
  movesDrawn = sig;
  target.replaceChildren(...box.childNodes);
}

function buildControls(view, ctx, me, box) {
  const panel = $("moves-panel");
  if (view.seat === null || ctx.replayMode) { panel.hidden = true; return; }
  panel.hidden = false;
  panel.querySelector("h2").textContent = view.status === "finished" ? t("Your game") : t("Your round (round {n})", { n: view.observation.round });
  if (view.can_undo) {
    box.append(ctx.undoButton());
  }
  const obs = view.observation;
  const you = obs.you;
  const page = view.page;
  const moves = page.moves || { choose: [], plagues: [], buildings: [], payments: [], gains: [], ships: [] };
  const note = $("moves-note");
  if (view.status === "finished") { note.textContent = t("The game is over."); panel.dataset.stage = "over"; return; }
  const stage = you.stage;
  panel.dataset.stage = stage;
  if (you.restriction) {
    box.append(el("p", { class: "restriction", text: t("{plague} this round: {effect}.", { plague: page.plague_titles[you.restriction], effect: page.plague_effects[you.restriction] }) }));
  }
  if (stage === "choose") {
    note.textContent = view.players.length > 1
      ? t("Click a column on the resource board (or below). Your choice is sealed: the others see only that you have chosen until every builder has.")
      : t("Click a column on the resource board (or below).");
    const row = el("div", { class: "column-choices" });
    for (const column of page.columns) {
      if (!moves.choose.includes(column.resource)) continue;
      const detail = columnDetail(page, column);
      const label = t("Take the {column} column", { column: resourceName(page, column.resource) });
      const button = moveButton(`choose ${column.resource}`, label, detail, ctx,
        `move-choose${column.plague ? " plague" : ""}`, () => chooseColumn(view, ctx, column.resource, columnLabel(page, column)));
      row.append(button);
    }
    box.append(row);
  } else if (stage === "chosen") {
    note.textContent = nt("You chose the {column} column (sealed until every builder has chosen). Waiting for {n} builder.",
      "You chose the {column} column (sealed until every builder has chosen). Waiting for {n} builders.", view.to_move.length,
      { column: resourceName(page, me.column), n: view.to_move.length })
      + (moves.ships.length ? ` ${t("Meanwhile you may use a ship (the others see it at the reveal).")}` : "");
  } else if (stage === "plague") {
    note.textContent = t("Your column held 3 dice or more: choose a plague to suffer (click it on the resource board or below).");
    renderPlagues(box, moves, page, ctx);
  } else if (stage === "plague_pay" || stage === "build_pay") {
    const pending = you.pending;
    if (pending && pending.kind === "build") {
      const cost = RESOURCES.filter((r) => pending.cost[r]).map((r) => amountText(r, pending.cost[r])).join(", ");
      const what = { building: page.titles[pending.building], hex: pending.hex, cost };
      note.textContent = `${pending.wild ? t("Pay for your {building} on {hex}: {cost} (through the d20).", what) : t("Pay for your {building} on {hex}: {cost}.", what)} ${t("The market lets 2 basic pay for 1 other, 3 basic for a favor, a favor for a basic. Cheapest ways first:")}`;
    } else if (pending) {
      note.textContent = t("Choose what to lose to {plague} ({effect}):", { plague: page.plague_titles[pending.plague], effect: page.plague_effects[pending.plague] });
    }
    renderPayments(box, moves.payments, ctx, me.score.total);
  } else if (stage === "build") {
    note.textContent = pick.building
      ? t("Now choose where the {building} goes: a glowing hex on your sheet, or a hex below.", { building: page.titles[pick.building] })
      : pick.hex
        ? t("Hex {hex}: choose what to build there.", { hex: pick.hex })
        : t("Choose a building, then click a glowing hex on your sheet (or click a hex first).");
    renderBuildings(box, moves, page, ctx);
  } else if (stage === "gain") {
    note.textContent = t("Your Burial Mound gives 2 basic resources or 1 favor: choose.");
    const row = el("div", { class: "choices" });
    for (const gain of moves.gains) row.append(moveButton(gain.text, t("Take {what}", { what: gain.words }), "", ctx, "move-gain"));
    box.append(row);
  } else {
    note.textContent = nt("Your building is drawn. Waiting for {n} builder to finish the round.",
      "Your building is drawn. Waiting for {n} builders to finish the round.", view.to_move.length, { n: view.to_move.length })
      + (moves.ships.length ? ` ${t("Meanwhile you may use a ship (the others see it at the round's end).")}` : "");
  }
  renderShips(box, moves, ctx);
  renderAllMoves(box, view, ctx);
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

// A resource's name in the reader's words (the page data carries them from the catalogue).
function resourceName(page, resource) { return (page && page.resources && page.resources[resource]) || resource; }

function amountText(resource, n) {
  if (resource === "grain") return nt("{n} grain", "{n} grain", n, { n });
  if (resource === "diamond") return nt("{n} diamond", "{n} diamond", n, { n });
  if (resource === "stone") return nt("{n} stone", "{n} stone", n, { n });
  return nt("{n} favor", "{n} favor", n, { n });
}

// What a column gives the seat, for its button and its place on the board.
function columnDetail(page, column) {
  const dice = nt("{n} die", "{n} dice", column.dice, { n: column.dice });
  const made = amountText(column.resource, column.produce);
  return column.plague ? t("{dice}: +{made} · plague!", { dice, made }) : t("{dice}: +{made}", { dice, made });
}

function columnLabel(page, column) {
  return t("Take the {column} column: {detail}", { column: resourceName(page, column.resource), detail: columnDetail(page, column) });
}

function renderPlagues(box, moves, page, ctx) {
  const row = el("div", { class: "choices plague-choices" });
  const seen = new Set();
  for (const p of moves.plagues) {
    if (p.ship) {
      if (seen.has(p.plague)) continue;
      seen.add(p.plague);
      const options = moves.plagues.filter((q) => q.plague === p.plague);
      const button = el("button", { type: "button", class: "move move-plague", "data-plague": p.plague, title: p.effect },
        el("span", { class: "move-text", text: t("Suffer {plague}", { plague: p.title }) }), el("small", { text: ` ${p.effect}` }));
      button.addEventListener("click", () => choosePlague(options, ctx));
      row.append(button);
      continue;
    }
    row.append(moveButton(p.text, t("Suffer {plague}", { plague: p.title }), p.effect, ctx, "move-plague"));
  }
  box.append(row);
  if (pick.hailfire) {
    const ships = moves.plagues.filter((p) => p.ship);
    const pickShip = el("div", { class: "choices hailfire" }, el("p", { class: "note", text: t("Hail-fire: which unused ship do you lose?") }));
    for (const p of ships) {
      const gives = moves.ships.find((s) => s.ship === p.ship);
      pickShip.append(moveButton(p.text, t("Lose ship {n}", { n: p.ship }), gives ? gives.gives : "", ctx, "move-hailfire"));
    }
    const cancel = el("button", { type: "button", class: "clear", text: t("Cancel") });
    cancel.addEventListener("click", () => { pick.hailfire = false; rerenderTo(ctx, "#moves button.move-plague"); });
    pickShip.append(cancel);
    box.append(pickShip);
  }
}

// A payment button says what it leaves on the sheet, and the score if the game ended then.
function paymentButton(p, ctx, first, total) {
  const leaves = first ? t("(cheapest) leaves {left}", { left: p.left }) : t("leaves {left}", { left: p.left });
  const detail = p.score !== total ? `${leaves}; ${t("score {before} → {after}", { before: total, after: p.score })}` : leaves;
  return moveButton(p.text, t("Pay {what}", { what: p.words }), detail, ctx, "move-pay");
}

function renderPayments(box, payments, ctx, total) {
  const row = el("div", { class: "choices payments" });
  payments.slice(0, SHOWN_PAYMENTS).forEach((p, i) => row.append(paymentButton(p, ctx, i === 0, total)));
  box.append(row);
  if (payments.length > SHOWN_PAYMENTS) {
    const more = el("details", { class: "more-payments" },
      el("summary", { text: nt("{n} more way to pay", "{n} more ways to pay", payments.length - SHOWN_PAYMENTS, { n: payments.length - SHOWN_PAYMENTS }) }));
    const rest = el("div", { class: "choices payments" });
    for (const p of payments.slice(SHOWN_PAYMENTS)) rest.append(paymentButton(p, ctx, false, total));
    more.append(rest);
    box.append(more);
  }
}

function swatch(page, building) {
  const colour = page.colours.buildings[building] || "#ccc";
  return el("span", { class: "swatch", style: `background:${colour}` });
}

function renderBuildings(box, moves, page, ctx) {
  const list = el("div", { class: "choices buildings" });
  for (const b of moves.buildings) {
    const spot = pick.hex ? b.hexes.find((h) => h.hex === pick.hex) : null;
    if (pick.hex && !spot) continue;
    const selected = pick.building === b.building;
    const cost = spot ? spot.cost : b.cost;
    const where = spot ? t("on {hex}", { hex: pick.hex }) : nt("{n} hex", "{n} hexes", b.hexes.length, { n: b.hexes.length });
    const button = el("button", {
      type: "button", class: `pick-building${selected ? " selected" : ""}`, "data-building": b.building,
      "aria-pressed": String(selected),
      title: spot ? t("Build a {building} on {hex} ({cost})", { building: b.title, hex: pick.hex, cost: spot.cost }) : t("Pick the {building}, then a hex", { building: b.title }),
    }, swatch(page, b.building), el("strong", { text: b.title }), el("small", { text: ` ${cost}${b.note ? `; ${b.note}` : ""} · ${where}` }));
    if (spot) {
      button.classList.add("move");
      button.dataset.move = spot.text;
      button.addEventListener("click", () => ctx.play(spot.text));
    } else {
      button.addEventListener("click", () => {
        pick.building = selected ? null : b.building;
        rerenderTo(ctx, pick.building ? "#moves button.hex-choice" : `#moves button.pick-building[data-building="${b.building}"]`);
      });
    }
    list.append(button);
  }
  box.append(list);
  const picked = pick.building && moves.buildings.find((b) => b.building === pick.building);
  if (picked) box.append(hexChoices(picked, ctx));
  if (pick.building || pick.hex) {
    const clear = el("button", { type: "button", class: "clear", id: "build-clear", text: t("Start over") });
    clear.addEventListener("click", () => { pick.building = null; pick.hex = null; rerenderTo(ctx, "#moves button.pick-building"); });
    box.append(clear);
  }
  if (!moves.buildings.length) box.append(el("p", { class: "note", text: t("Nothing to build now.") }));
}

// The hexes a picked building may go on, as buttons (the same moves as the glowing hexes of
// the sheet, for the keyboard and a phone), the best for the Pharaoh cards first.
function hexChoices(building, ctx) {
  const spots = [...building.hexes].sort((a, b) => b.cards - a.cards || a.hex.localeCompare(b.hex));
  const row = el("div", { class: "choices hex-choices", role: "group", "aria-label": t("Where to build the {building}", { building: building.title }) },
    el("p", { class: "note", text: t("Where? Your Pharaoh cards now, hex by hex (best first):") }));
  for (const spot of spots) {
    const button = el("button", {
      type: "button", class: "hex-choice move", "data-move": spot.text, "data-hex": spot.hex,
      "aria-label": spot.sacred
        ? t("{building} on {hex}, a Sacred Site: {cost}, your cards {change}", { building: building.title, hex: spot.hex, cost: spot.cost, change: signed(spot.cards) })
        : t("{building} on {hex}: {cost}, your cards {change}", { building: building.title, hex: spot.hex, cost: spot.cost, change: signed(spot.cards) }),
    }, el("strong", { text: spot.hex }), el("small", { text: ` ${signed(spot.cards)}${spot.sacred ? ` · ${t("Sacred")}` : ""}` }));
    button.addEventListener("click", () => ctx.play(spot.text));
    row.append(button);
  }
  return row;
}

function renderShips(box, moves, ctx) {
  if (!moves.ships.length) return;
  const row = el("div", { class: "ships-row" }, el("h3", { text: t("Ships (each once a game; 2 points at the end if unused)") }));
  for (const ship of moves.ships) {
    const button = el("button", { type: "button", class: "use-ship", "data-ship": ship.ship }, t("Ship {n}: {gives}", { n: ship.ship, gives: ship.gives }));
    button.addEventListener("click", () => { pick.ship = ship.ship; rerenderTo(ctx, "#ship-confirm"); });
    row.append(button);
  }
  if (pick.ship) {
    const ship = moves.ships.find((s) => s.ship === pick.ship);
    if (ship) {
      const confirm = el("button", { type: "button", id: "ship-confirm", class: "move move-ship confirm", "data-move": ship.text },
        t("Use ship {n} now for {gives}", { n: ship.ship, gives: ship.gives }));
      confirm.addEventListener("click", () => ctx.play(ship.text));
      const cancel = el("button", { type: "button", class: "clear", id: "ship-cancel", text: t("Keep it") });
      cancel.addEventListener("click", () => { pick.ship = null; rerenderTo(ctx, `#moves button.use-ship[data-ship="${ship.ship}"]`); });
      row.append(el("div", { class: "ship-confirm" },
        el("p", { text: t("Ship {n} can be used only once a game, and an unused ship is worth 2 points at the end. Use it now?", { n: ship.ship }) }),
        confirm, " ", cancel));
    }
  }
  box.append(row);
}

function renderAllMoves(box, view, ctx) {
  if (!view.legal.length) return;
  // every legal move in a player's words (the engine's text, what the terminal types, in
  // its tooltip)
  const labels = (view.page && view.page.labels) || [];
  const details = el("details", { class: "all-moves" }, el("summary", { text: nt("All {n} legal move", "All {n} legal moves", view.legal.length, { n: view.legal.length }) }));
  const list = el("div", { class: "choices" });
  view.legal.forEach((move, i) => {
    const button = el("button", { type: "button", class: "move move-text-only", "data-move": move.text, title: move.text, text: labels[i] || move.text });
    button.addEventListener("click", () => ctx.play(move.text));
    list.append(button);
  });
  details.append(list);
  box.append(details);
}

// ------------------------------------------------------------------ standings
function renderStandings(view, ctx) {
  const panel = $("preview-panel");
  const obs = view.observation;
  if (view.status === "finished" || obs.players.length === 1) {
    if (obs.players.length === 1 && view.status !== "finished") {
      panel.hidden = false;
      const total = obs.players[0].score.total;
      panel.replaceChildren(el("h2", { text: t("Builder status so far") }), rankScale(view.page, obs.layout.ranks, total, false));
      aboutFigures(panel, view.page);
    } else {
      panel.hidden = true;
    }
    return;
  }
  panel.hidden = false;
  const order = obs.players.map((p) => p.seat).sort((a, b) => figures(obs.players[b]).total - figures(obs.players[a]).total || a - b);
  const top = order.slice(0, 8);
  if (view.seat !== null && !top.includes(view.seat)) top.push(view.seat);
  const table = el("table", { class: "standings" }, el("tr", {}, el("th", { text: "#" }), el("th", { text: t("Builder") }), el("th", { text: t("Score") })));
  for (const seat of top) {
    const p = obs.players[seat];
    table.append(el("tr", { class: seat === view.seat ? "me" : "" }, el("td", { text: order.indexOf(seat) + 1 }),
      el("td", {}, ctx.chip(seat, p.name)), el("td", { text: figures(p).total })));
  }
  panel.replaceChildren(el("h2", { text: t("Standings if the game ended now") }), table,
    el("p", { class: "note", text: view.page && view.page.replay
      ? t("Scores of the sheets as they truly stood at this move.")
      : view.seat === null
      ? t("Scores of the sheets as last shown (the reveal or the round's end).")
      : t("Your own score is live; the others' are as their sheets were last shown (the reveal or the round's end).") }));
  aboutFigures(panel, view.page);
}

// "About these figures": where the sheet's and the cards' figures come from (a note about
// our data, not about the game, so it stays out of the play tooltips), folded.
function aboutFigures(panel, page) {
  const about = (page && page.about_figures) || [];
  if (!about.length) return;
  const open = document.getElementById("egyptia-about-figures");
  const details = el("details", { class: "about-figures", id: "egyptia-about-figures" },
    el("summary", { text: t("About these figures") }), ...about.map((line) => el("p", { class: "note", text: line })));
  if (open && open.open) details.open = true;
  panel.append(details);
}

function rankName(page, name) { return (page && page.ranks && page.ranks[name]) || name; }

function rankScale(page, ranks, total, final) {
  const list = el("ol", { class: "rank-scale" });
  ranks.forEach((rank, i) => {
    const next = ranks[i + 1];
    const range = next ? `${rank.from}-${next.from - 1}` : `${rank.from}+`;
    const reached = total >= rank.from && (!next || total < next.from);
    list.append(el("li", { class: reached ? "reached" : "", "data-rank": rank.name }, el("strong", { text: rankName(page, rank.name) }), ` ${range}`));
  });
  const said = final
    ? nt("Final score: {n} point.", "Final score: {n} points.", total, { n: total })
    : nt("Score if the game ended now: {n} point.", "Score if the game ended now: {n} points.", total, { n: total });
  return el("div", {}, el("p", { text: said }), list);
}

// ------------------------------------------------------------------ the other builders
function escapeText(text) { return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }

function miniMap(layout, city, colours, titles) {
  const key = JSON.stringify([city, titles]);
  const cached = miniMaps.get(key);
  if (cached) return cached;
  const r = 9, w = Math.sqrt(3) * r;
  const cols = layout.hexes.map((h) => h.col), rows = layout.hexes.map((h) => h.row);
  const width = (Math.max(...cols) - Math.min(...cols)) * w / 2 + w + 2;
  const height = (Math.max(...rows) - Math.min(...rows)) * 1.5 * r + 2 * r + 2;
  const parts = [`<svg xmlns="${SVG_NS}" viewBox="0 0 ${width.toFixed(1)} ${height.toFixed(1)}" class="mini-map" aria-hidden="true">`];
  for (const h of layout.hexes) {
    const cx = 1 + w / 2 + (h.col - Math.min(...cols)) * w / 2;
    const cy = 1 + r + (h.row - Math.min(...rows)) * 1.5 * r;
    const built = city[h.label];
    const fill = built ? colours[built] : h.kind === "sacred" ? "#f7d64a" : h.kind === "oasis" ? "#7cc3e8" : "#f3e6c4";
    const stroke = h.kind === "sacred" ? "#c79a00" : "#8a7a5a";
    const points = [-90, -30, 30, 90, 150, 210].map((a) => {
      const t = a * Math.PI / 180;
      return `${(cx + (r - 0.6) * Math.cos(t)).toFixed(1)},${(cy + (r - 0.6) * Math.sin(t)).toFixed(1)}`;
    }).join(" ");
    const what = built ? (titles[built] || built) : h.kind === "sacred" ? t("Sacred Site") : h.kind === "oasis" ? t("Oasis") : t("empty");
    parts.push(`<polygon points="${points}" fill="${fill}" stroke="${stroke}" stroke-width="${h.kind === "sacred" ? 1.6 : 0.8}"><title>${h.label}: ${escapeText(what)}</title></polygon>`);
  }
  parts.push("</svg>");
  const svg = parts.join("");
  if (miniMaps.size > 500) miniMaps.clear();
  miniMaps.set(key, svg);
  return svg;
}

function builderCard(view, ctx, p) {
  const obs = view.observation;
  const page = view.page;
  const sheet = p.sheet;
  const mine = p.seat === view.seat;
  const open = grid.open.has(p.seat);
  const card = el("article", { class: `builder-card${mine ? " me" : ""}${open ? " open" : ""}`, "data-seat": p.seat, "data-stage": p.stage });
  const info = view.players[p.seat];
  const head = el("header", {}, ctx.chip(p.seat, p.name));
  // a bot by its level ("Medium bot"), the bot behind it on hover (the view's seat.bot)
  if (info && info.kind === "bot" && info.bot) {
    head.title = info.bot.spec;
    if (info.name !== info.bot.label) head.append(el("small", { text: ` ${t("bot {name}", { name: info.bot.label })}` }));
  }
  head.append(el("span", { class: `stage stage-${p.stage}`, text: (page.stage_words && page.stage_words[p.stage]) || p.stage }));
  card.append(head);
  const map = el("div", { class: "mini-map-wrap" });
  map.innerHTML = miniMap(obs.layout, sheet.city, page.colours.buildings, page.titles);
  const res = sheet.resources;
  const unusedShips = sheet.ships.filter((s) => s === "unused").length;
  const crossed = Object.values(sheet.plagues).filter(Boolean).length;
  // each resource by its name, with what the builder has of it (never letters)
  const numbers = el("dl", { class: "numbers" },
    el("dt", { text: t("score") }), el("dd", { class: "score", text: p.score.total }),
    el("dt", { text: t("built") }), el("dd", { text: `${sheet.buildings}` }),
    ...RESOURCES.flatMap((r) => [el("dt", { class: `resource resource-${r}`, text: resourceName(page, r) }), el("dd", { "data-resource": r, text: res[r].have })]),
    el("dt", { text: t("ships") }), el("dd", { text: nt("{n} left", "{n} left", unusedShips, { n: unusedShips }) }),
    el("dt", { text: t("plagues") }), el("dd", { text: sheet.deaths ? nt("{n} +{deaths} Death", "{n} +{deaths} Death", crossed, { n: crossed, deaths: sheet.deaths }) : `${crossed}` }));
  if (p.column) numbers.append(el("dt", { text: t("column") }), el("dd", { text: resourceName(page, p.column) }));
  card.append(el("div", { class: "builder-body" }, map, numbers));
  if (sheet.red) card.append(el("p", { class: "warn", text: t("red dot circled: last round") }));
  if (open) {
    const prod = ["grain", "diamond", "stone"].map((r) => `${resourceName(page, r)} +${sheet.productivity[r].bonus}`).join(", ");
    const plagues = Object.entries(sheet.plagues).filter(([, v]) => v).map(([k]) => page.plague_titles[k] || k).join(", ") || t("none");
    const cards = p.score.cards.map((c) => `${c.card} ${c.points}`).join(" · ");
    const built = Object.entries(sheet.city).map(([h, b]) => `${h} ${page.titles[b] || b}`).join(", ") || t("none");
    card.append(el("div", { class: "details" },
      el("p", { text: t("Cards: {cards}; favor {favor}, ships {ships}, pestilence -{pestilence}", { cards, favor: p.score.favor_points, ships: p.score.ship_points, pestilence: p.score.pestilence }) }),
      el("p", { text: t("Productivity: {list}", { list: prod }) }),
      el("p", { text: t("Plagues crossed off: {list}", { list: plagues }) }),
      el("p", { text: t("Buildings: {list}", { list: built }) })));
  }
  card.setAttribute("tabindex", "0");
  card.setAttribute("role", "button");
  const stageWord = (page.stage_words && page.stage_words[p.stage]) || p.stage;
  const who = mine ? t("{name} (you)", { name: p.name }) : p.name;
  card.setAttribute("aria-label", open
    ? t("{who}: score {score}, {built} built, {stage}; hide the details", { who, score: p.score.total, built: sheet.buildings, stage: stageWord })
    : t("{who}: score {score}, {built} built, {stage}; show the details", { who, score: p.score.total, built: sheet.buildings, stage: stageWord }));
  card.setAttribute("aria-expanded", String(open));
  const toggle = () => { if (grid.open.has(p.seat)) grid.open.delete(p.seat); else grid.open.add(p.seat); ctx.rerender(); };
  card.addEventListener("click", toggle);
  card.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); } });
  return card;
}

// A builder's figures: from its sheet and score where the view has them (the seat's own, a
// small table's builders, a replay's), else from its brief (a crowd table's other builders).
function figures(p) {
  if (!p.sheet) return p.brief;
  return {
    total: p.score.total,
    plagues: Object.values(p.sheet.plagues).filter(Boolean).length,
    deaths: p.sheet.deaths,
    buildings: p.sheet.buildings,
    ships: p.sheet.ships.filter((s) => s === "unused").length,
    red: p.sheet.red,
  };
}

// The builders in the order and with the filter the reader chose.
function orderedBuilders(players) {
  const order = [...players];
  const rank = { choosing: 0, building: 1, chosen: 2, done: 3 };
  if (grid.sort === "score") order.sort((a, b) => figures(b).total - figures(a).total || a.seat - b.seat);
  else if (grid.sort === "name") order.sort((a, b) => a.name.localeCompare(b.name));
  else if (grid.sort === "stage") order.sort((a, b) => rank[a.stage] - rank[b.stage] || a.seat - b.seat);
  const wanted = grid.filter.trim().toLowerCase();
  return order.filter((p) => !wanted || p.name.toLowerCase().includes(wanted));
}

function builderTools(ctx) {
  const sort = el("select", { id: "builder-sort", "aria-label": t("order of the builders") },
    ...[["seat", t("by seat")], ["score", t("by score")], ["name", t("by name")], ["stage", t("by stage")]]
      .map(([v, words]) => el("option", { value: v, text: words, selected: grid.sort === v ? "" : null })));
  sort.addEventListener("change", () => { grid.sort = sort.value; ctx.rerender(); });
  const filter = el("input", { id: "builder-filter", type: "search", placeholder: t("find a builder"), value: grid.filter, "aria-label": t("find a builder") });
  filter.addEventListener("input", () => {
    grid.filter = filter.value;
    ctx.rerender();
    const again = $("builder-filter");
    if (again) { again.focus(); again.setSelectionRange(again.value.length, again.value.length); }
  });
  return el("div", { class: "builder-tools" }, sort, " ", filter);
}

function renderBuilders(view, ctx) {
  const panel = $("builders-panel");
  const obs = view.observation;
  // solo: the seat's own sheet is above, nothing else to show
  if (!view.page || (obs.players.length === 1 && view.seat !== null)) { panel.hidden = true; return; }
  panel.hidden = false;
  if (view.crowd && !view.page.replay) { renderCrowd(view, ctx, panel); return; }
  const players = obs.players;
  const s = view.page.stages;
  const focus = document.activeElement && document.activeElement.id === "builder-filter";
  const summary = players.length > 1
    ? t("{choosing} choosing · {chosen} chosen · {building} building · {done} done", s)
    : "";
  const tools = players.length > 6 ? builderTools(ctx) : "";
  const shown = orderedBuilders(players);
  const cards = el("div", { class: `builder-grid${players.length > 12 ? " many" : ""}` }, ...shown.map((p) => builderCard(view, ctx, p)));
  const how = view.page.replay
    ? t("Every sheet as it truly stood at this move; click a card for details.")
    : t("Other sheets are shown as at the last reveal or round's end; click a card for details.");
  panel.replaceChildren(el("h2", { text: players.length === 1 ? t("Your sheet in short") : t("Builders ({n})", { n: players.length }) }),
    el("p", { class: "note", text: summary ? `${summary}. ${how}` : how }),
    tools, cards);
  if (focus) { const again = $("builder-filter"); if (again) again.focus(); }
}

// ------------------------------------------------------------------ a crowd table
// The others as one compact list (the view has them in short); the sheet of the builder
// opened is fetched and shown above the list, as the reader may see it (as last published).
function renderCrowd(view, ctx, panel) {
  const obs = view.observation;
  const players = obs.players;
  const focus = document.activeElement && document.activeElement.id === "builder-filter";
  const summary = t("{choosing} choosing · {chosen} chosen · {building} building · {done} done", view.page.stages);
  const how = t("Each builder as last shown (the reveal or the round's end); open one to see their sheet.");
  const head = el("tr", {}, el("th", { scope: "col", text: t("Builder") }), el("th", { scope: "col", text: t("Stage") }),
    el("th", { scope: "col", class: "number", text: t("Score") }), el("th", { scope: "col", class: "number", text: t("Built") }),
    el("th", { scope: "col", class: "number", text: t("Plagues") }), el("th", { scope: "col", class: "number", text: t("Ships") }));
  const rows = orderedBuilders(players).map((p) => crowdRow(view, ctx, p));
  const list = el("div", { class: "crowd-list-wrap" }, el("table", { class: "crowd-list" },
    el("caption", { class: "visually-hidden", text: t("Builders ({n})", { n: players.length }) }), el("thead", {}, head), el("tbody", {}, ...rows)));
  panel.replaceChildren(el("h2", { text: t("Builders ({n})", { n: players.length }) }),
    el("p", { class: "note", text: `${summary}. ${how}` }), builderTools(ctx), crowdSheet(view, ctx), list);
  if (focus) { const again = $("builder-filter"); if (again) again.focus(); }
}

function crowdRow(view, ctx, p) {
  const mine = p.seat === view.seat;
  const f = figures(p);
  const page = view.page;
  const stage = (page.stage_words && page.stage_words[p.stage]) || p.stage;
  const open = grid.sheet === p.seat;
  let who;
  if (mine) {
    who = el("span", {}, ctx.chip(p.seat, p.name), " ", el("small", { text: t("(you: your sheet is above)") }));
  } else {
    const button = el("button", { type: "button", class: "open-sheet", "data-seat": p.seat, "aria-expanded": String(open),
      "aria-label": open ? t("Hide the sheet of {name}", { name: p.name }) : t("Show the sheet of {name}", { name: p.name }) },
    ctx.chip(p.seat, p.name));
    if (open) button.setAttribute("aria-controls", "crowd-sheet");
    button.addEventListener("click", () => { grid.sheet = open ? null : p.seat; ctx.rerender(); });
    who = button;
  }
  const plagues = f.deaths ? nt("{n} +{deaths} Death", "{n} +{deaths} Death", f.plagues, { n: f.plagues, deaths: f.deaths }) : `${f.plagues}`;
  const row = el("tr", { class: `builder-row${mine ? " me" : ""}${open ? " open" : ""}`, "data-seat": p.seat, "data-stage": p.stage },
    el("td", {}, who, f.red ? el("span", { class: "warn red-dot", title: t("red dot circled: last round"), text: " ●" }) : ""),
    el("td", {}, el("span", { class: `stage stage-${p.stage}`, text: stage })),
    el("td", { class: "number score", text: f.total }), el("td", { class: "number", text: f.buildings }),
    el("td", { class: "number", text: plagues }), el("td", { class: "number", text: f.ships }));
  return row;
}

// The open builder's sheet: fetched once per builder and publication (a new one comes at each
// reveal and round's end), shown as drawn by the server.
function crowdSheet(view, ctx) {
  const seat = grid.sheet;
  const players = view.observation.players;
  if (seat === null || seat === view.seat || !players[seat]) { grid.sheet = null; return ""; }
  const key = `${view.game_id}:${view.observation.round}:${view.observation.revealed}:${view.status}`;
  if (fetched.seat !== seat) {
    fetched = { seat, key, data: null, error: null, loading: true, node: null };
    fetchSheet(view, ctx, seat, key);
  } else if (fetched.key !== key) { // a new publication: the drawing shown until it comes
    fetched = { ...fetched, key, error: null, loading: true };
    fetchSheet(view, ctx, seat, key);
  }
  const name = players[seat].name;
  const close = el("button", { type: "button", class: "close-sheet", text: t("Close") });
  close.addEventListener("click", () => {
    grid.sheet = null;
    if (fetched.error) fetched = { ...fetched, seat: null }; // asked again when opened again
    ctx.rerender();
    const back = document.querySelector(`#builders-panel button.open-sheet[data-seat="${seat}"]`);
    if (back) back.focus();
  });
  const box = el("section", { id: "crowd-sheet", class: "crowd-sheet", "data-seat": seat, "aria-label": t("The sheet of {name}", { name }) },
    el("div", { class: "crowd-sheet-head" }, el("h3", { text: t("The sheet of {name}, as last shown", { name }) }), close));
  if (fetched.error) box.append(el("p", { class: "error", role: "alert", text: fetched.error }));
  else if (!fetched.data) box.append(el("p", { class: "note", text: t("Loading the sheet…") }));
  else {
    if (!fetched.node) {
      fetched.node = el("div", { class: "crowd-sheet-svg" });
      fetched.node.innerHTML = fetched.data.svg;
    }
    box.append(fetched.node);
  }
  return box;
}

async function fetchSheet(view, ctx, seat, key) {
  const current = () => fetched.seat === seat && fetched.key === key;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(view.game_id)}/sheets/${seat}`, { headers: ctx.headers() });
    const body = await response.json();
    if (!current()) return;
    if (response.ok) fetched = { ...fetched, data: body, node: null };
    else fetched.error = body.error || t("The sheet could not be loaded.");
  } catch {
    if (!current()) return;
    fetched.error = t("The sheet could not be loaded.");
  }
  fetched.loading = false;
  if (grid.sheet === seat) ctx.rerender();
}

// ------------------------------------------------------------------ the end
function renderResult(view, ctx) {
  const panel = $("result-panel");
  const obs = view.observation;
  if (!view.result || !obs.final) { panel.hidden = true; return; }
  panel.hidden = false;
  panel.querySelector("h2").textContent = t("Final scoring");
  const final = [...obs.final].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  const winners = view.result.winners.map((s) => obs.players[s].name).join(" and ");
  const wrap = $("result").parentElement;
  for (const old of wrap.parentElement.querySelectorAll(".solo-status")) old.remove();
  if (obs.players.length === 1) {
    const total = obs.final[0].total;
    $("winners").textContent = nt("Builder status: {rank} ({n} point)", "Builder status: {rank} ({n} points)", total,
      { rank: rankName(view.page, obs.solo_rank).toUpperCase(), n: total });
    $("winners").classList.add("solo-rank");
    wrap.before(el("div", { class: "solo-status" }, rankScale(view.page, obs.layout.ranks, obs.final[0].total, true)));
  } else {
    $("winners").classList.remove("solo-rank");
    $("winners").textContent = resultHeadline(view); // ranked as the ratings rank (/static/result.js)
  }
  const cards = obs.cards.map((c) => c.id);
  const table = $("result");
  const cardTexts = (view.page && view.page.cards) || {};
  table.replaceChildren(el("tr", {}, el("th", { text: t("Rank") }), el("th", { text: t("Builder") }),
    ...cards.map((c) => el("th", { text: c, title: cardTexts[c] || obs.cards.find((x) => x.id === c).text })),
    el("th", { text: t("Favor") }), el("th", { text: t("Ships") }), el("th", { text: t("Pestilence") }),
    el("th", { text: t("Plagues") }), el("th", { text: t("Total") })));
  for (const line of final) {
    table.append(el("tr", { class: `total-row${line.seat === view.seat ? " me" : ""}`, "data-seat": line.seat },
      el("td", { text: line.rank }), el("td", {}, ctx.chip(line.seat, line.name)),
      ...line.cards.map((c) => el("td", { text: c.points, title: c.parts.join("+") || "0" })),
      el("td", { text: line.favor_points, title: t("{n} favor after the market", { n: line.favor }) }),
      el("td", { text: line.ship_points, title: nt("{n} ship unused", "{n} ships unused", line.ships_unused, { n: line.ships_unused }) }),
      el("td", { text: line.pestilence ? -line.pestilence : 0 }),
      el("td", { text: line.plagues }),
      el("td", { class: "final-score", text: line.total })));
  }
}
