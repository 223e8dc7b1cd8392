// The plain drawing, for a game without a script of its own (or whose script failed to
// load): the seat's observation as readable tables, its legal moves as buttons, the players
// and the result. Any registered game plays in the browser with it, and a replay shows each
// step's observation the same way.
import { $, el } from "/static/dom.js";
import { t } from "/static/i18n.js";
import { resultHeadline } from "/static/result.js";

// Panels of the built-in games' own scripts: a plain page leaves them hidden.
const GAME_PANELS = ["hand-panel", "cartouche-panel", "builders-panel", "preview-panel", "sheet"];
// Observation keys the page already shows elsewhere (the banner, the header).
const SHOWN_ELSEWHERE = new Set(["game", "seat", "decision", "phase_name"]);
// Keys whose whole numbers are seats: drawn as the seat's chip.
const SEAT_KEYS = new Set(["seat", "winner", "to_move", "order", "first", "start_player"]);
// More moves than this are grouped by their first word, each group under its heading.
const GROUP_FROM = 8;

export function render(view, ctx) {
  for (const id of GAME_PANELS) {
    const node = $(id);
    if (node) node.hidden = true;
  }
  renderObservation(view, ctx);
  renderMoves(view, ctx);
  renderPlayers(view, ctx);
  renderResult(view, ctx);
}

// ------------------------------------------------------------------ the observation
// "prizes_to_come" -> "Prizes to come".
function label(key) {
  const words = String(key).replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function isScalar(value) {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function scalarText(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  return String(value);
}

// One value of the observation as DOM: text, a list, a table of rows, or a table of fields.
function valueNode(value, key, view, ctx) {
  if (SEAT_KEYS.has(key) && Number.isInteger(value) && view.players[value]) {
    return ctx.chip(value, view.players[value].name);
  }
  if (SEAT_KEYS.has(key) && Array.isArray(value) && value.every((s) => Number.isInteger(s) && view.players[s])) {
    if (!value.length) return document.createTextNode(t("nobody"));
    const span = el("span", { class: "plain-seats" });
    value.forEach((s, i) => span.append(i ? " " : "", ctx.chip(s, view.players[s].name)));
    return span;
  }
  if (isScalar(value)) return document.createTextNode(scalarText(value));
  if (Array.isArray(value)) {
    if (!value.length) return el("span", { class: "empty", text: t("none") });
    if (value.every(isScalar)) return document.createTextNode(value.map(scalarText).join(" "));
    if (value.every((v) => v && typeof v === "object" && !Array.isArray(v))) return rowsTable(value, view, ctx);
    return el("ol", {}, ...value.map((v) => el("li", {}, valueNode(v, "", view, ctx))));
  }
  return fieldsTable(value, view, ctx);
}

// An object as a two-column table: a field's name, its value.
function fieldsTable(object, view, ctx, skip = new Set()) {
  const table = el("table", { class: "plain-fields" });
  for (const [key, value] of Object.entries(object)) {
    if (skip.has(key)) continue;
    table.append(el("tr", { "data-key": key }, el("th", { scope: "row", text: label(key) }),
      el("td", {}, valueNode(value, key, view, ctx))));
  }
  return table;
}

// A list of objects (the players, say) as one table: a row each, a column per field.
function rowsTable(rows, view, ctx) {
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const table = el("table", { class: "plain-rows" });
  table.append(el("tr", {}, ...keys.map((key) => el("th", { scope: "col", text: label(key) }))));
  rows.forEach((row, i) => {
    const mine = keys.includes("seat") ? row.seat === view.seat : i === view.seat;
    table.append(el("tr", { class: mine && view.seat !== null ? "me" : "" },
      ...keys.map((key) => el("td", { "data-key": key }, key in row ? valueNode(row[key], key, view, ctx) : ""))));
  });
  return table;
}

function renderObservation(view, ctx) {
  let panel = $("plain-view");
  if (!panel) {
    panel = el("section", { class: "panel plain-view", id: "plain-view", "aria-labelledby": "plain-view-heading" });
    $("board").after(panel);
  }
  const obs = view.observation || {};
  const heading = ctx.replayMode ? t("The position") : view.seat === null ? t("What everyone sees") : t("What you see");
  panel.replaceChildren(el("h2", { id: "plain-view-heading", text: heading }), fieldsTable(obs, view, ctx, SHOWN_ELSEWHERE));
}

// ------------------------------------------------------------------ the moves
function renderMoves(view, ctx) {
  const box = $("moves");
  box.replaceChildren();
  const panel = $("moves-panel");
  if (view.seat === null || ctx.replayMode) { panel.hidden = true; return; }
  panel.hidden = false;
  if (view.can_undo) box.append(ctx.undoButton());
  if (!view.legal.length) {
    $("moves-note").textContent = view.status !== "running" ? t("The game is over.") : t("Nothing to decide now: waiting for the others.");
    return;
  }
  $("moves-note").textContent = view.sealed
    ? t("Your moves (sealed: the others learn yours only when everyone has chosen):")
    : t("Your moves:");
  const button = (move) => {
    const node = el("button", { type: "button", class: "move", "data-move": move.text, text: move.text });
    node.addEventListener("click", () => ctx.play(move.text));
    return node;
  };
  if (view.legal.length < GROUP_FROM) {
    box.append(...view.legal.map(button));
    return;
  }
  const groups = new Map();
  for (const move of view.legal) {
    const word = move.text.split(" ")[0];
    if (!groups.has(word)) groups.set(word, []);
    groups.get(word).push(move);
  }
  for (const [word, moves] of groups) {
    box.append(el("div", { class: "move-group", role: "group", "aria-label": label(word) },
      el("h3", { text: `${label(word)} (${moves.length})` }), ...moves.map(button)));
  }
}

// ------------------------------------------------------------------ players and result
function renderPlayers(view, ctx) {
  const table = $("players");
  if (!table) return;
  const seen = (view.observation && view.observation.players) || [];
  const score = (seat) => {
    if (view.result) return view.result.scores[seat];
    const shown = seen[seat] && seen[seat].score;
    return typeof shown === "number" ? shown : "";
  };
  table.replaceChildren(el("tr", {}, el("th", { text: t("Player") }), el("th", { text: t("Score") })));
  view.players.forEach((player, seat) => {
    const name = el("td", {}, ctx.chip(seat, player.name));
    // a bot is named by its level ("Medium bot"); the bot behind it shows on hover
    if (player.kind === "bot" && player.bot) {
      name.title = player.bot.spec;
      if (player.name !== player.bot.label) name.append(" ", botBadge(player.bot)); // a bot named otherwise
    }
    if (view.to_move.includes(seat) && view.status === "running") name.append(el("small", { class: "to-move", text: t(" · to move") }));
    table.append(el("tr", { class: seat === view.seat ? "me" : "" }, name, el("td", { class: "score", text: String(score(seat)) })));
  });
}

// A bot seat's level, with its spec on hover ("Medium bot", title "heuristic").
export function botBadge(bot) {
  return el("small", { class: "bot-level", "data-level": bot.level || "", title: bot.spec, "data-tip": bot.spec, text: bot.label || t("Bot") });
}

function renderResult(view, ctx) {
  const panel = $("result-panel");
  if (!view.result) { panel.hidden = true; return; }
  panel.hidden = false;
  panel.querySelector("h2").textContent = t("Result");
  $("winners").textContent = resultHeadline(view); // ranked as the ratings rank (result.js)
  const table = $("result");
  table.replaceChildren(el("tr", {}, el("th", { text: t("Player") }), el("th", { text: t("Final score") }), el("th", { text: t("Rank") })));
  view.players.forEach((player, seat) => {
    table.append(el("tr", { class: "total-row" }, el("td", {}, ctx.chip(seat, player.name)),
      el("td", { class: "final-score", text: String(view.result.scores[seat]) }),
      el("td", { text: String(view.result.ranks[seat]) })));
  });
}
