// The page /me (karnak.server.tables.my_games): the account's running games, those waiting on
// it first (the longest waiting first), its open tables, its finished games with their
// results, and its notifications (marked read on demand). Live: a notification pushed on the
// account socket (session.js dispatches "karnak:notification") re-fetches both lists; a
// gentle poll catches what no notification announces (another player's move).
import { $, el, installTooltips } from "./dom.js";
import { formatNumber, language, nt, t } from "./i18n.js";
import { mountAccountBar, postJson, whoAmI } from "./session.js";

const POLL_EVERY = 20000; // ms

function since(iso) {
  const minutes = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 60000));
  if (minutes < 1) return t("less than a minute");
  if (minutes < 90) return nt("{n} min", "{n} min", minutes, { n: minutes });
  if (minutes < 48 * 60) return nt("{n} hour", "{n} hours", Math.round(minutes / 60), { n: Math.round(minutes / 60) });
  return nt("{n} day", "{n} days", Math.round(minutes / 1440), { n: Math.round(minutes / 1440) });
}

function listed(names) {
  try { return new Intl.ListFormat(language(), { type: "conjunction" }).format(names); } catch { return names.join(", "); }
}

function others(game) {
  const rest = game.opponents || game.players.filter((_, i) => i !== game.seat);
  if (rest.length > 5) return t("{names} and {n} more", { names: rest.slice(0, 4).join(", "), n: rest.length - 4 });
  return listed(rest);
}

function started(game) {
  if (!game.started_at) return "";
  let words = game.started || "";
  try {
    words = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(game.started_at));
  } catch { /* the server's words (Babel) */ }
  return t("started {when}", { when: words });
}

function score(value) {
  return typeof value === "number" ? formatNumber(value) : typeof value === "object" ? JSON.stringify(value) : String(value);
}

// "Aton with Bes · game 4fQ2xk · started 3 Jun 2025, 14:05": two games with the same
// people read apart by their number and start.
function gameItem(game) {
  const company = game.players.length === 1 ? t("{game}, alone", { game: game.title })
    : t("{game} with {names}", { game: game.title, names: others(game) });
  const item = el("li", { class: `my-game${game.your_turn ? " your-turn" : ""}`, "data-game": game.game_id },
    el("a", { href: game.url, text: company }),
    el("span", { class: "game-number", text: ` · ${t("game {number}", { number: game.number || game.game_id.slice(0, 6) })}` }));
  const when = started(game);
  if (when) item.append(el("span", { class: "game-started", text: ` · ${when}` }));
  if (game.status === "unavailable") item.append(` · ${t("unavailable: {reason}", { reason: game.reason || "" })}`);
  else if (game.your_turn) item.append(` · ${t("your turn, waiting for {time}", { time: since(game.waiting_since) })}`);
  else if (game.result) {
    const r = game.result;
    const points = r.score !== null && r.score !== undefined ? score(r.score) : "";
    if (r.solo) item.append(` · ${points ? t("finished with {score} points", { score: points }) : t("finished")}${game.status !== "finished" ? ` (${game.status})` : ""}`);
    else {
      const place = r.left ? t("you left: counted last") : r.rank ? t("your place: {rank}", { rank: r.rank }) : t("finished");
      const winners = r.winners.length ? t("won by {names}", { names: listed(r.winners) }) : t("nobody won");
      item.append(` · ${place}${points ? ` · ${t("{score} points", { score: points })}` : ""} · ${winners}`);
    }
  } else item.append(` · ${t("last move {time} ago", { time: since(game.updated_at) })}`);
  return item;
}

function tableItem(table) {
  const open = table.seats.filter((s) => s.state === "open" || s.state === "reserved").length;
  const waiting = table.you && table.you.seat === null && table.you.invited_seat !== null ? ` · ${t("a seat is kept for you")}` : "";
  return el("li", { class: "my-table", "data-table": table.id },
    el("a", { href: `/tables/${encodeURIComponent(table.id)}`, text: t("{game}: a table of {n}", { game: table.title, n: table.players }) }),
    ` · ${nt("{n} seat to fill", "{n} seats to fill", open, { n: open })}${waiting}`);
}

function fill(list, items, empty) {
  list.replaceChildren(...items);
  if (!items.length) list.append(el("li", { class: "empty", text: empty }));
}

async function refreshGames() {
  const response = await fetch("/api/me/games");
  if (response.status === 401) { $("logged-out").hidden = false; $("my-games").hidden = true; return; }
  if (!response.ok) { $("games-error").textContent = t("Your games could not be listed ({status}).", { status: response.status }); return; }
  const mine = await response.json();
  $("games-error").textContent = "";
  fill($("waiting"), mine.running.filter((g) => g.your_turn).map(gameItem), t("Nothing waits for you."));
  fill($("running"), mine.running.filter((g) => !g.your_turn).map(gameItem), t("none"));
  fill($("my-tables"), mine.tables.map(tableItem), t("none"));
  fill($("finished"), mine.finished.map(gameItem), t("none"));
}

async function refreshNotifications() {
  const response = await fetch("/api/notifications");
  if (!response.ok) return;
  const listed = await response.json();
  const items = listed.notifications.map((n) => {
    const item = el("li", { class: `notification${n.read ? "" : " unread"}`, "data-kind": n.kind },
      n.link ? el("a", { href: n.link, text: n.text }) : el("span", { text: n.text }), " ",
      el("time", { datetime: n.created_at, text: t("{time} ago", { time: since(n.created_at) }) }));
    return item;
  });
  fill($("notifications"), items, t("No notifications."));
  $("mark-read").disabled = !listed.unread;
}

async function markRead() {
  const answer = await postJson("/api/notifications/read", {});
  if (answer.ok) {
    const count = document.getElementById("unread-count");
    if (count) count.textContent = "";
    refreshNotifications();
  }
}

async function start() {
  installTooltips();
  mountAccountBar();
  const me = await whoAmI();
  if (!me.account) { $("logged-out").hidden = false; $("my-games").hidden = true; $("notifications-panel").hidden = true; return; }
  $("mark-read").addEventListener("click", markRead);
  document.addEventListener("karnak:notification", () => { refreshGames(); refreshNotifications(); });
  await Promise.all([refreshGames(), refreshNotifications()]);
  setInterval(() => { refreshGames(); refreshNotifications(); }, POLL_EVERY);
}

start();
