// The administration page: find a user and restrain them, open a game (as a spectator sees
// it) to abort or delete it and hide chat lines, the reports players sent, and the audit log.
// Everything goes through /api/admin/..., which refuses anyone but an administrator.
import { $, el } from "./dom.js";
import { mountAccountBar, postJson, whoAmI } from "./session.js";
import { t } from "./i18n.js";

let user = null; // the account shown in the user panel
let game = null; // the game id shown in the game panel
let oldestAudit = null;

function say(text) { $("admin-done").textContent = text; $("admin-error").textContent = ""; }
function fail(text) { $("admin-error").textContent = text; $("admin-done").textContent = ""; }

async function getJson(path) {
  const response = await fetch(path);
  let data = null;
  try { data = await response.json(); } catch (error) { data = null; }
  if (!response.ok) throw new Error((data && data.error) || t("the server answered {status}", { status: response.status }));
  return data;
}

async function act(path, body, done) {
  const answer = await postJson(path, body);
  if (!answer.ok) { fail((answer.data && answer.data.error) || t("the server answered {status}", { status: answer.status })); return null; }
  say(done);
  refreshAudit();
  return answer.data;
}

function when(iso) { return iso ? new Date(iso).toLocaleString() : "—"; }

// ------------------------------------------------------------------ users
function userLine(found) {
  const button = el("button", { type: "button", text: found.name });
  button.addEventListener("click", () => showUser(found.id));
  return el("li", {}, button, ` · ${found.role} · `, el("span", { class: `status-${found.status}`, text: found.status }));
}

async function find(event) {
  event.preventDefault();
  const by = $("find-by").value;
  const text = $("find-text").value.trim();
  try {
    const found = await getJson(`/api/admin/users?${by}=${encodeURIComponent(text)}`);
    $("found").replaceChildren(...(found.length ? found.map(userLine) : [el("li", { class: "empty", text: t("Nobody found.") })]));
  } catch (error) { fail(error.message); }
}

async function showUser(id) {
  try { user = await getJson(`/api/admin/users/${id}`); } catch (error) { fail(error.message); return; }
  $("user-panel").hidden = false;
  $("user-heading").textContent = `User: ${user.name}`;
  const facts = [
    [t("Role"), user.role], [t("Status"), user.status], [t("Suspended until"), when(user.suspended_until)],
    [t("Muted until"), when(user.muted_until)], [t("Account made"), when(user.created_at)],
    [t("Confirmed e-mail"), user.email_confirmed ? t("yes") : t("no")],
  ];
  $("user-facts").replaceChildren(...facts.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })]));
  $("user-games").replaceChildren(...(user.games.length ? user.games.map((g) => {
    const open = el("button", { type: "button", text: g.id });
    open.addEventListener("click", () => { $("game-id").value = g.id; showGame(g.id); });
    return el("li", {}, open, " · ", t("{game} · {status} · seat {seat} ({name}) · {created}", { game: g.game, status: g.status, seat: g.seat + 1, name: g.seat_name, created: when(g.created_at) }));
  }) : [el("li", { class: "empty", text: t("No game.") })]));
  $("user-reports").replaceChildren(...(user.reports.length ? user.reports.map(reportLine) : [el("li", { class: "empty", text: t("No report.") })]));
}

function until() {
  const value = $("user-until").value;
  return value ? new Date(value).toISOString() : null;
}

// what each action says when it is done: one whole sentence each
function userActionDone(action, name) {
  switch (action) {
    case "suspend": return t("{name} is suspended.", { name });
    case "unsuspend": return t("{name}'s suspension or ban is lifted.", { name });
    case "ban": return t("{name} is banned.", { name });
    case "mute": return t("{name} is muted.", { name });
    case "unmute": return t("{name} is no longer muted.", { name });
    case "password-reset": return t("A password reset was sent to {name}.", { name });
    case "delete": return t("{name}'s account is deleted.", { name });
    default: return t("Done for {name}.", { name });
  }
}

async function userAction(action) {
  if (!user) return;
  const reason = $("user-reason").value;
  const path = `/api/admin/users/${user.id}/${action}`;
  let body = { reason };
  if (action === "suspend" || action === "mute") {
    const time = until();
    if (!time) { fail(t("choose the time it lasts until first")); return; }
    body = { until: time, reason };
  }
  if (action === "password-reset") body = undefined;
  if (action === "delete") {
    const typed = prompt(t("Deleting {name} cannot be undone: their seats become guests', their chat lines anonymous, their e-mail address, ratings and notifications go. Type the name to confirm.", { name: user.name }));
    if (typed !== user.name) { fail(t("not deleted: the name typed did not match")); return; }
  }
  const done = await act(path, body, userActionDone(action, user.name));
  if (!done) return;
  if (action === "password-reset") say(done.message);
  if (action === "delete") { $("user-panel").hidden = true; user = null; } else showUser(user.id);
}

// ------------------------------------------------------------------ games
async function showGame(id) {
  let seen;
  try { seen = await getJson(`/api/admin/games/${encodeURIComponent(id)}`); } catch (error) { fail(error.message); return; }
  game = seen.view.game_id;
  const view = seen.view;
  const players = view.players.map((p) => (p.kind === "bot" ? t("{name} (bot)", { name: p.name }) : p.name)).join(", ");
  const holders = seen.holders.map((h) => h.name).join(", ") || t("none");
  $("game-box").hidden = false;
  $("game-facts").replaceChildren(el("a", { href: `/games/${encodeURIComponent(game)}`, text: `${view.title} ${game}` }),
    " · ", t("{status} · move {move} · players: {players} · accounts: {accounts}", { status: view.status, move: view.version, players, accounts: holders }));
  try {
    const lines = await getJson(`/api/admin/games/${encodeURIComponent(game)}/chat`);
    $("game-chat").replaceChildren(...(lines.length ? lines.map(chatLine) : [el("li", { class: "empty", text: t("No chat.") })]));
  } catch (error) { fail(error.message); }
}

function chatLine(line) {
  const who = line.account ? `${line.name} (${line.account})` : line.name;
  const item = el("li", { class: line.hidden_at ? "hidden-line" : "" }, `${line.n}. ${who}: `, el("span", { text: line.text }));
  if (line.hidden_at) item.append(t(" (hidden by {hidden_by}, {hidden_at})", { hidden_by: line.hidden_by, hidden_at: when(line.hidden_at) }));
  else {
    const hide = el("button", { type: "button", text: t("Hide") });
    hide.addEventListener("click", async () => {
      if (await act(`/api/admin/games/${encodeURIComponent(game)}/chat/${line.n}/hide`, { reason: $("game-reason").value }, t("Line {line} is hidden.", { line: line.n }))) showGame(game);
    });
    item.append(" ", hide);
  }
  return item;
}

async function gameAction(action) {
  if (!game) return;
  if (action === "delete" && !confirm(t("Delete game {game} with its moves and chat? This cannot be undone.", { game }))) return;
  const said = action === "delete" ? t("Game {game} is deleted.", { game }) : t("Game {game} is aborted.", { game });
  const done = await act(`/api/admin/games/${encodeURIComponent(game)}/${action}`, { reason: $("game-reason").value }, said);
  if (!done) return;
  if (action === "delete") { $("game-box").hidden = true; game = null; } else showGame(game);
}

// ------------------------------------------------------------------ reports
// a translated sentence with the game's id (once) made a link to the game
function linkedGame(text, gameId) {
  const at = gameId ? text.indexOf(gameId) : -1;
  if (at < 0) return [text];
  return [text.slice(0, at), el("a", { href: `/games/${encodeURIComponent(gameId)}`, text: gameId }), text.slice(at + gameId.length)];
}

function reportLine(report) {
  // one whole sentence each, the game's id then linked where it stands in the sentence
  const said = report.kind === "chat"
    ? t("#{id} · {when} · {reporter} reported line {line} of game {game}: “{text}” by {target_name}", { id: report.id, when: when(report.created_at), reporter: report.reporter, line: report.line, game: report.game_id, text: report.line_text, target_name: report.target_name })
    : t("#{id} · {when} · {reporter} reported the player {target_name}", { id: report.id, when: when(report.created_at), reporter: report.reporter, target_name: report.target_name });
  const item = el("li", {}, ...linkedGame(said, report.kind === "chat" ? report.game_id : null), el("br"),
    el("span", { class: "note", text: t("Reason: {reason}", { reason: report.reason }) }));
  if (report.status === "open") {
    const note = el("input", { maxlength: "500", placeholder: t("note (what was done)"), "aria-label": t("note for report {id}", { id: report.id }) });
    const close = el("button", { type: "button", text: t("Close") });
    close.addEventListener("click", async () => {
      if (!note.value.trim()) { fail(t("write a note before closing")); return; }
      if (await act(`/api/admin/reports/${report.id}/close`, { note: note.value }, t("Report {id} is closed.", { id: report.id }))) loadReports();
    });
    item.append(el("br"), note, " ", close);
  } else {
    item.append(el("br"), el("span", { class: "note", text: t("Closed by {closed_by} {closed_at}: {note}", { closed_by: report.closed_by, closed_at: when(report.closed_at), note: report.note }) }));
  }
  return item;
}

async function loadReports() {
  try {
    const listed = await getJson(`/api/admin/reports?status=${$("reports-status").value}`);
    $("reports").replaceChildren(...(listed.length ? listed.map(reportLine) : [el("li", { class: "empty", text: t("No report.") })]));
  } catch (error) { fail(error.message); }
}

// ------------------------------------------------------------------ audit
function auditRow(row) {
  return el("tr", {}, el("td", { text: when(row.at) }), el("td", { text: row.admin }), el("td", { text: row.action }),
    el("td", { text: `${row.target_kind}: ${row.target}` }), el("td", { text: row.detail }));
}

async function loadAudit(more = false) {
  const before = more && oldestAudit ? `&before=${oldestAudit}` : "";
  const rows = await getJson(`/api/admin/audit?limit=50${before}`);
  const table = $("audit");
  if (!more) {
    table.replaceChildren(el("thead", {}, el("tr", {}, ...["When", "Who", "What", "On", "Detail"].map((t) => el("th", { scope: "col", text: t })))), el("tbody"));
  }
  table.querySelector("tbody").append(...rows.map(auditRow));
  if (rows.length) oldestAudit = rows[rows.length - 1].id;
  $("audit-more").hidden = rows.length < 50;
}

function refreshAudit() { loadAudit().catch((error) => fail(error.message)); }

async function main() {
  mountAccountBar();
  const me = await whoAmI();
  if (!me.account) {
    fail(t("Log in with an administrator's account to use this page."));
    return;
  }
  try { await loadAudit(); } catch (error) { fail(error.message); return; }
  $("admin-body").hidden = false;
  $("find-form").addEventListener("submit", find);
  for (const button of document.querySelectorAll("#user-form [data-action]")) {
    button.addEventListener("click", () => userAction(button.dataset.action));
  }
  $("game-form").addEventListener("submit", (event) => { event.preventDefault(); showGame($("game-id").value.trim()); });
  $("game-abort").addEventListener("click", () => gameAction("abort"));
  $("game-delete").addEventListener("click", () => gameAction("delete"));
  $("reports-status").addEventListener("change", loadReports);
  $("audit-more").addEventListener("click", () => loadAudit(true).catch((error) => fail(error.message)));
  loadReports();
}

main();
