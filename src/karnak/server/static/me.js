// The page /me (karnak.server.tables.my_games): the account's running games, those waiting on
// it first (the longest waiting first), its open tables, its finished games with their
// results, and its notifications (marked read on demand). Live: a notification pushed on the
// account socket (session.js dispatches "karnak:notification") re-fetches both lists; a
// gentle poll catches what no notification announces (another player's move).
import { $, el, installTooltips } from "./dom.js";
import { mountAccountBar, postJson, whoAmI } from "./session.js";

const POLL_EVERY = 20000; // ms

function since(iso) {
  const minutes = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 60000));
  if (minutes < 1) return "less than a minute";
  if (minutes < 90) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`;
  return `${Math.round(minutes / 1440)} days`;
}

function others(game) {
  const rest = game.players.filter((_, i) => i !== game.seat);
  if (rest.length > 5) return `${rest.slice(0, 4).join(", ")} and ${rest.length - 4} more`;
  return rest.join(", ");
}

function ordinal(n) {
  return `${n}${["th", "st", "nd", "rd"][(n % 100 - 20) % 10] || ["th", "st", "nd", "rd"][n % 100] || "th"}`;
}

function gameItem(game) {
  const item = el("li", { class: `my-game${game.your_turn ? " your-turn" : ""}`, "data-game": game.game_id },
    el("a", { href: game.url, text: `${game.title} with ${others(game) || "nobody else"}` }));
  if (game.status === "unavailable") item.append(` · unavailable: ${game.reason || ""}`);
  else if (game.your_turn) item.append(` · your turn, waiting for ${since(game.waiting_since)}`);
  else if (game.result) {
    const r = game.result;
    const rank = r.rank ? `you came ${ordinal(r.rank)}` : "finished";
    const score = r.score !== null && r.score !== undefined ? ` with ${typeof r.score === "object" ? JSON.stringify(r.score) : r.score}` : "";
    item.append(` · ${rank}${score} · won by ${r.winners.join(" and ") || "nobody"}`);
  } else item.append(` · last move ${since(game.updated_at)} ago`);
  return item;
}

function tableItem(table) {
  const open = table.seats.filter((s) => s.state === "open" || s.state === "reserved").length;
  const waiting = table.you && table.you.seat === null && table.you.invited_seat !== null ? " · a seat is kept for you" : "";
  return el("li", { class: "my-table", "data-table": table.id },
    el("a", { href: `/tables/${encodeURIComponent(table.id)}`, text: `${table.title}: a table of ${table.players}` }),
    ` · ${open} seat${open === 1 ? "" : "s"} to fill${waiting}`);
}

function fill(list, items, empty) {
  list.replaceChildren(...items);
  if (!items.length) list.append(el("li", { class: "empty", text: empty }));
}

async function refreshGames() {
  const response = await fetch("/api/me/games");
  if (response.status === 401) { $("logged-out").hidden = false; $("my-games").hidden = true; return; }
  if (!response.ok) { $("games-error").textContent = `Your games could not be listed (${response.status}).`; return; }
  const mine = await response.json();
  $("games-error").textContent = "";
  fill($("waiting"), mine.running.filter((g) => g.your_turn).map(gameItem), "Nothing waits for you.");
  fill($("running"), mine.running.filter((g) => !g.your_turn).map(gameItem), "none");
  fill($("my-tables"), mine.tables.map(tableItem), "none");
  fill($("finished"), mine.finished.map(gameItem), "none");
}

async function refreshNotifications() {
  const response = await fetch("/api/notifications");
  if (!response.ok) return;
  const listed = await response.json();
  const items = listed.notifications.map((n) => {
    const item = el("li", { class: `notification${n.read ? "" : " unread"}`, "data-kind": n.kind },
      n.link ? el("a", { href: n.link, text: n.text }) : el("span", { text: n.text }), " ",
      el("time", { datetime: n.created_at, text: `${since(n.created_at)} ago` }));
    return item;
  });
  fill($("notifications"), items, "No notifications.");
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
