// The lobby's open tables (karnak.server.tables): the public list, joining (with the session,
// or as a guest under a name), and the table one sits at (or was invited to, or created): its
// seats, and what its creator may do (invite, withdraw, fill with bots and start, cancel).
// Also opened at /tables/<id> (an invitation's link, a rematch). A guest's ticket for a table
// is kept in this browser (localStorage "karnak.tickets"): it is their seat's link once the
// game starts. Text goes in by textContent only (el(..., {text})): names are user text.
import { $, el } from "./dom.js";
import { t, nt } from "./i18n.js";
import { listFriends } from "./friends.js";
import { postJson, whoAmI, writeHeaders } from "./session.js";

const TICKETS = "karnak.tickets";
const LIST_EVERY = 5000; // ms between refreshes of the public list
const TABLE_EVERY = 2000; // ms between refreshes of the table one is at

let shown = null; // the id of the table shown in #table-view
let tableTimer = null;

function tickets() {
  try { return JSON.parse(localStorage.getItem(TICKETS) || "{}"); } catch { return {}; }
}

export function keepTicket(tableId, ticket) {
  if (!ticket) return;
  const all = tickets();
  all[tableId] = ticket;
  localStorage.setItem(TICKETS, JSON.stringify(all));
}

function dropTicket(tableId) {
  const all = tickets();
  delete all[tableId];
  localStorage.setItem(TICKETS, JSON.stringify(all));
}

function ticketPath(path, tableId) {
  const ticket = tickets()[tableId];
  return ticket ? `${path}?ticket=${encodeURIComponent(ticket)}` : path;
}

function seatText(seat) {
  // a bot seat not named yet is named by its level when the game starts ("Medium bot")
  if (seat.state === "bot") return seat.name ? t("{name} (bot)", { name: seat.name }) : t("a bot");
  if (seat.state === "taken") return seat.by === "guest" ? t("{name} (guest)", { name: seat.name }) : seat.name;
  if (seat.state === "reserved") return seat.invited ? t("kept for {name}", { name: seat.invited }) : t("kept for an invited player");
  return t("open");
}

function seatSummary(table) {
  return table.seats.map((s) => `${s.seat + 1}: ${seatText(s)}`).join(" · ");
}

function ago(iso) {
  const minutes = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 60000));
  if (minutes < 1) return t("just now");
  if (minutes < 60) return t("{n} min ago", { n: minutes });
  return t("{n} h ago", { n: Math.round(minutes / 60) });
}

// ------------------------------------------------------------------ creating
// The lobby's form, with at least one seat "open": the first person seat is the creator's,
// any other person seat is open too (a person other than you joins it from the lobby).
export async function createTable(body) {
  let own = false;
  const seats = body.seats.map((seat) => {
    if (seat.kind === "human" && !own) { own = true; return { kind: "human", name: seat.name }; }
    if (seat.kind === "bot") return seat;
    return { kind: "open" };
  });
  const answer = await postJson("/api/tables", { game: body.game, seats, options: body.options, turn_timer: body.turn_timer, time_control: body.time_control || null });
  if (!answer.ok) { $("create-error").textContent = (answer.data && answer.data.error) || t("refused ({status})", { status: answer.status }); return; }
  keepTicket(answer.data.table.id, answer.data.ticket);
  openTable(answer.data.table.id);
  refreshTables();
}

// ------------------------------------------------------------------ the public list
async function join(tableId, name, seat = null, errorBox = null) {
  const me = await whoAmI();
  const body = {};
  if (!me.account) body.name = name;
  if (seat !== null) body.seat = seat;
  const ticket = tickets()[tableId];
  const headers = ticket ? { ...writeHeaders(), "X-Karnak-Ticket": ticket } : writeHeaders();
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST", headers, body: JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    if (errorBox) errorBox.textContent = data.error || t("refused ({status})", { status: response.status });
    return;
  }
  keepTicket(tableId, data.ticket);
  openTable(tableId);
  refreshTables();
}

// How fast a table plays, in words: its turn timer or its time bank, or nothing.
function span(seconds) {
  if (seconds >= 86400 && seconds % 86400 === 0) return nt("{n} day", "{n} days", seconds / 86400, { n: seconds / 86400 });
  if (seconds >= 3600 && seconds % 3600 === 0) return t("{n} h", { n: seconds / 3600 });
  if (seconds >= 60 && seconds % 60 === 0) return t("{n} min", { n: seconds / 60 });
  return t("{n} s", { n: seconds });
}

function pace(table) {
  if (table.time_control) {
    const { per_move: move, bank } = table.time_control;
    return ` · ${bank ? t("{move} a move + a bank of {bank}", { move: span(move), bank: span(bank) }) : t("{move} a move", { move: span(move) })}`;
  }
  return table.turn_timer ? ` · ${t("{n} s a decision", { n: table.turn_timer })}` : "";
}

async function refreshTables() {
  const list = $("open-tables");
  if (!list) return;
  let tables = [];
  try { tables = await (await fetch("/api/tables")).json(); } catch { return; }
  const me = await whoAmI();
  list.replaceChildren();
  for (const table of tables) {
    const open = table.seats.filter((s) => s.state === "open").length;
    const item = el("li", { class: "table-item", "data-table": table.id },
      el("strong", { text: table.title }), ` · ${nt("{n} player", "{n} players", table.players, { n: table.players })} · ${t("{n} open", { n: open })}${pace(table)} · ${ago(table.created_at)}`,
      el("div", { class: "note table-seats", text: seatSummary(table) }));
    const error = el("span", { class: "error", role: "alert" });
    const look = el("button", { type: "button", class: "table-open", text: t("Open") });
    look.addEventListener("click", () => openTable(table.id));
    item.append(look, " ");
    if (open && !tickets()[table.id]) {
      if (me.account) {
        const go = el("button", { type: "button", class: "table-join", text: t("Join as {name}", { name: me.account.name }) });
        go.addEventListener("click", () => join(table.id, null, null, error));
        item.append(go);
      } else {
        const name = el("input", { class: "guest-name", maxlength: 40, placeholder: t("your name"), "aria-label": t("Your name at the {game} table", { game: table.title }) });
        const go = el("button", { type: "button", class: "table-join", text: t("Join as a guest") });
        go.addEventListener("click", () => join(table.id, name.value.trim(), null, error));
        item.append(name, " ", go);
      }
    }
    item.append(" ", error);
    list.append(item);
  }
  if (!list.children.length) list.append(el("li", { class: "empty", text: t("No table is waiting for players: create one with an open seat.") }));
}

// ------------------------------------------------------------------ the table one is at
export function openTable(tableId) {
  shown = tableId;
  if (location.pathname !== `/tables/${tableId}`) history.replaceState(null, "", `/tables/${encodeURIComponent(tableId)}`);
  clearInterval(tableTimer);
  tableTimer = setInterval(showTable, TABLE_EVERY);
  showTable();
}

function closeTable() {
  shown = null;
  clearInterval(tableTimer);
  $("table-view").hidden = true;
  if (location.pathname.startsWith("/tables/")) history.replaceState(null, "", "/");
}

async function act(what, body = {}) {
  const tableId = shown;
  const ticket = tickets()[tableId];
  const headers = ticket ? { ...writeHeaders(), "X-Karnak-Ticket": ticket } : writeHeaders();
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/${what}`, { method: "POST", headers, body: JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  $("table-error").textContent = response.ok ? "" : (data.error || `refused (${response.status})`);
  if (response.ok && what === "cancel") { dropTicket(tableId); closeTable(); }
  else if (response.ok && what === "leave" && ticket) dropTicket(tableId);
  if (shown) showTable();
  refreshTables();
}

async function showTable() {
  const tableId = shown;
  if (!tableId) return;
  let response = await fetch(ticketPath(`/api/tables/${encodeURIComponent(tableId)}`, tableId));
  if (response.status === 403 && tickets()[tableId]) { // a ticket of nobody (it left): look as a stranger
    dropTicket(tableId);
    response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  }
  const table = await response.json().catch(() => ({}));
  if (shown !== tableId) return;
  const view = $("table-view");
  view.hidden = false;
  const body = $("table-body");
  if (!response.ok) {
    body.replaceChildren(el("p", { class: "error", text: table.error || t("This table cannot be shown.") }));
    clearInterval(tableTimer);
    return;
  }
  const you = table.you;
  const me = await whoAmI();
  const seats = el("ol", { class: "table-seat-list" });
  // the creator's friends come first as suggestions for an invitation (any name still works)
  const inviting = table.status === "open" && you && you.creator && table.seats.some((s) => s.state === "open");
  const friends = inviting && me.account ? await listFriends() : [];
  if (shown !== tableId) return;
  for (const seat of table.seats) {
    const row = el("li", { "data-seat": seat.seat, class: `table-seat ${seat.state}` },
      el("span", { text: seatText(seat) }), you && you.seat === seat.seat ? el("strong", { text: ` ${t("(you)")}` }) : "");
    if (table.status === "open" && you && you.creator && seat.state === "open") {
      const name = el("input", { class: "invite-name", maxlength: 40, placeholder: friends.length ? t("a friend or any account") : t("an account's name"), "aria-label": t("Invite to seat {n}", { n: seat.seat + 1 }), list: "invite-friends" });
      const invite = el("button", { type: "button", class: "invite", text: t("Invite") });
      invite.addEventListener("click", () => act("invite", { seat: seat.seat, name: name.value.trim() }));
      row.append(" ", name, " ", invite);
    }
    if (table.status === "open" && you && you.creator && seat.state === "reserved") {
      const withdraw = el("button", { type: "button", class: "withdraw", text: t("Withdraw the invitation") });
      withdraw.addEventListener("click", () => act("withdraw", { seat: seat.seat }));
      row.append(" ", withdraw);
    }
    seats.append(row);
  }
  const timer = pace(table);
  const parts = [
    el("h3", { id: "table-title", text: table.rematch_of
      ? t("{game}: a table of {n} (a rematch)", { game: table.title, n: table.players })
      : t("{game}: a table of {n}", { game: table.title, n: table.players }) }),
    el("p", { class: "note", text: `${t("Created {when}", { when: ago(table.created_at) })}${timer}. ${table.status === "open" ? t("It starts when every seat is taken, or when its creator fills the rest with bots.") : t("It has started.")}` }),
    seats,
    el("datalist", { id: "invite-friends" }, ...friends.map((f) => el("option", { value: f.name }))),
  ];
  const tools = el("p", { class: "table-tools" });
  if (table.status === "started") {
    if (you && you.seat !== null && table.url) {
      tools.append(el("a", { href: table.url, id: "table-game", text: t("Your game has started: play it") }));
      clearInterval(tableTimer);
      location.assign(table.url); // the seat's game: the session's, or the guest's link
    } else {
      tools.append(el("a", { href: `/games/${encodeURIComponent(table.game_id)}`, text: t("It has started: watch the game") }));
      clearInterval(tableTimer);
    }
  } else {
    if (you && you.creator) {
      const fill = el("button", { type: "button", id: "table-fill", text: t("Fill the open seats with bots and start") });
      fill.addEventListener("click", () => act("start", {}));
      const cancel = el("button", { type: "button", id: "table-cancel", text: t("Cancel the table") });
      cancel.addEventListener("click", () => act("cancel"));
      tools.append(fill, " ", cancel, " ");
    }
    if (you && you.seat !== null && !you.creator) {
      const leave = el("button", { type: "button", id: "table-leave", text: t("Leave the table") });
      leave.addEventListener("click", () => act("leave"));
      tools.append(leave, " ");
    }
    if (you && you.seat === null && you.invited_seat !== null) {
      const take = el("button", { type: "button", id: "table-take", text: t("Take seat {n}, kept for you", { n: you.invited_seat + 1 }) });
      take.addEventListener("click", () => join(tableId, null, you.invited_seat, $("table-error")));
      const decline = el("button", { type: "button", id: "table-decline", text: t("Decline") });
      decline.addEventListener("click", () => act("leave"));
      tools.append(take, " ", decline);
    } else if ((!you || you.seat === null) && table.seats.some((s) => s.state === "open")) {
      if (me.account) {
        const go = el("button", { type: "button", id: "table-join", text: t("Join as {name}", { name: me.account.name }) });
        go.addEventListener("click", () => join(tableId, null, null, $("table-error")));
        tools.append(go);
      } else {
        const name = el("input", { id: "table-guest-name", maxlength: 40, placeholder: t("your name"), "aria-label": t("Your name at this table") });
        const go = el("button", { type: "button", id: "table-join", text: t("Join as a guest") });
        go.addEventListener("click", () => join(tableId, name.value.trim(), null, $("table-error")));
        tools.append(name, " ", go);
      }
    }
  }
  parts.push(tools);
  if (you && you.seat !== null && tickets()[tableId] && table.status === "open") {
    parts.push(el("p", { class: "note", text: t("This browser keeps your ticket for this table: it opens your seat once the game starts.") }));
  }
  body.replaceChildren(...parts);
}

// ------------------------------------------------------------------ mounting
export function mountTables() {
  $("table-close").addEventListener("click", closeTable);
  const match = location.pathname.match(/^\/tables\/([A-Za-z0-9_-]{1,64})$/);
  if (match) openTable(match[1]);
  refreshTables();
  setInterval(refreshTables, LIST_EVERY);
}
