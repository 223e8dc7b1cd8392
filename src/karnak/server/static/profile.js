// A player's profile (/players/<name>): finished games played and won per game, each
// rating with a small chart of its history (inline SVG drawn here, no library), and the
// recent finished games with their results, each linking to its game. Public facts only:
// the server lists finished games alone. Names go in as text, never as HTML.
//
// The friends panel (#friends-panel) belongs to friends.js, which mounts itself there when
// it is served: this page works without it. It is shown on your own profile once friends.js
// has filled it; the panel's data-player names the profile's player for friends.js.
import { $, el, installTooltips } from "./dom.js";
import { mountFriendButton } from "./friends.js";
import { mountAccountBar, postJson, whoAmI, writeHeaders } from "./session.js";
import { formatDate, formatNumber, nt, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const playerName = decodeURIComponent(location.pathname.split("/")[2] || "");

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

export function signed(change) {
  if (change === null || change === undefined) return "";
  return change > 0 ? `+${change.toFixed(1)}` : change < 0 ? `−${Math.abs(change).toFixed(1)}` : "±0.0";
}

function changeSpan(change) {
  const cls = change > 0 ? "up" : change < 0 ? "down" : "";
  return el("span", { class: `change ${cls}`.trim(), text: signed(change) });
}

// ------------------------------------------------------------------ the chart
// A rating's history as a line: one point per rated game (the rating after it), the start
// (before the first game shown) on the left; the lowest and highest values labelled.
export function ratingChart(points, title, id) {
  const W = 320, H = 130, left = 34, right = 8, top = 10, bottom = 20;
  const values = [points.length ? points[0].before : 0, ...points.map((p) => p.rating)];
  let low = Math.min(...values), high = Math.max(...values);
  if (high - low < 1) { low -= 0.5; high += 0.5; }
  const x = (i) => left + (values.length === 1 ? 0 : (i * (W - left - right)) / (values.length - 1));
  const y = (v) => top + ((high - v) * (H - top - bottom)) / (high - low);
  const first = values[0], last = values[values.length - 1];
  const summary = nt("{title}: from {first} to {last} over {n} rated game", "{title}: from {first} to {last} over {n} rated games", points.length,
    { title, first: one(first), last: one(last) });
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": `${id}-caption`, class: "rating-chart", id });
  for (const v of [high, low]) {
    chart.append(svg("line", { class: "grid", x1: left, x2: W - right, y1: y(v), y2: y(v) }));
    chart.append(svg("text", { class: "label", x: left - 4, y: y(v) + 3, "text-anchor": "end" }, one(v)));
  }
  chart.append(svg("text", { class: "label", x: left, y: H - 5 }, t("start")));
  chart.append(svg("text", { class: "label", x: W - right, y: H - 5, "text-anchor": "end" }, t("game {n}", { n: formatNumber(points.length) })));
  chart.append(svg("polyline", { class: "line", points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ") }));
  values.forEach((v, i) => {
    const dot = svg("circle", { class: "point", cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3 });
    const change = signed(Math.round((v - values[i - 1]) * 10) / 10);
    const label = i === 0 ? t("Before: {rating}", { rating: one(v) })
      : points[i - 1].left ? t("Game {n}: {rating} ({change}), left the game", { n: formatNumber(i), rating: one(v), change })
        : t("Game {n}: {rating} ({change})", { n: formatNumber(i), rating: one(v), change });
    dot.setAttribute("data-tip", label);
    dot.append(svg("title", {}, label));
    chart.append(dot);
  });
  return el("figure", { class: "chart" }, el("h3", { text: title }), chart,
    el("figcaption", { id: `${id}-caption`, text: summary }));
}

// ------------------------------------------------------------------ the tables
function renderGames(profile) {
  const head = el("tr", {}, el("th", { scope: "col", text: t("Game") }), el("th", { scope: "col", class: "number", text: t("Played") }),
    el("th", { scope: "col", class: "number", text: t("Wins") }), el("th", { scope: "col", class: "number", text: t("Rating") }),
    el("th", { scope: "col", class: "number", text: t("Rated games") }), el("th", { scope: "col", text: t("Leaderboard") }));
  const rows = profile.games.map((g) => el("tr", { "data-game": g.game },
    el("th", { scope: "row", text: g.title }),
    el("td", { class: "number", text: formatNumber(g.played) }),
    el("td", { class: "number", text: formatNumber(g.wins) }),
    el("td", { class: "number rating", text: g.rating ? one(g.rating.rating) : t("not rated yet"),
      "data-tip": g.rating ? t("mu {mu}, sigma {sigma}: shown as mu − 3 sigma", { mu: two(g.rating.mu), sigma: two(g.rating.sigma) }) : null }),
    el("td", { class: "number", text: formatNumber(g.rating ? g.rating.games : 0) }),
    el("td", {}, el("a", { href: `/leaderboard/${encodeURIComponent(g.game)}`, text: t("{game} leaderboard", { game: g.title }) }))));
  $("games-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  const charts = profile.games.filter((g) => g.history.length)
    .map((g) => ratingChart(g.history, t("{game} rating", { game: g.title }), `chart-${g.game}`));
  $("charts").replaceChildren(...charts);
  $("games-panel").hidden = false;
}

function place(game) {
  if (game.left) return t("left the game (counts last)");
  const of = formatNumber(game.players.length);
  const parts = [];
  if (game.won) parts.push(t("won"));
  if (game.rank !== null) parts.push(t("rank {rank} of {of}", { rank: formatNumber(game.rank), of }));
  if (game.score !== null) parts.push(nt("{n} point", "{n} points", game.score));
  return parts.join(", ");
}

// Ratings with one decimal, mu and sigma with two, as the page's language writes numbers.
function one(v) { return formatNumber(v, { minimumFractionDigits: 1, maximumFractionDigits: 1 }); }
function two(v) { return formatNumber(v, { minimumFractionDigits: 2, maximumFractionDigits: 2 }); }

function renderRecent(profile) {
  const list = $("recent");
  if (!profile.recent.length) {
    list.replaceChildren(el("li", { class: "empty", text: t("No finished game yet.") }));
  } else {
    list.replaceChildren(...profile.recent.map((game) => {
      const when = game.finished_at ? formatDate(game.finished_at) : "";
      const players = game.players.map((p) => p.kind === "bot" ? t("{name} (bot)", { name: p.name }) : p.name).join(", ");
      const item = el("li", { class: "recent-game", "data-game-id": game.id },
        el("a", { href: `/games/${encodeURIComponent(game.id)}`, text: `${game.title}` }), ` · ${when} · ${place(game)}`);
      if (game.rating_change !== null) item.append(` · ${t("rating")} `, changeSpan(game.rating_change));
      item.append(el("br"), el("span", { class: "players", text: t("Players: {players}", { players }) }));
      return item;
    }));
  }
  $("recent-panel").hidden = false;
}

// ------------------------------------------------------------------ the game of the day
// The player's streaks and finished ranked days, newest first (GET /api/daily/players/<name>):
// the first DAILY_SHOWN days, the rest behind a button. A day links to its leaderboard.
const DAILY_SHOWN = 10;

function dailyRows(days) {
  return days.map((d) => el("tr", { "data-day": d.day },
    el("th", { scope: "row" }, el("a", { href: `/daily?day=${encodeURIComponent(d.day)}#leaderboard-panel`,
      text: formatDate(`${d.day}T00:00:00Z`, { dateStyle: "medium", timeZone: "UTC" }) })),
    el("td", { class: "number", text: formatNumber(d.score) }),
    el("td", { text: d.status || "" }),
    el("td", { class: "number", text: d.plagues === null || d.plagues === undefined ? "" : formatNumber(d.plagues) }),
    el("td", { class: "number", text: d.place === null || d.place === undefined ? "" : formatNumber(d.place) })));
}

function renderDailyTable(history, all) {
  const shown = all ? history.days : history.days.slice(0, DAILY_SHOWN);
  const head = el("tr", {}, el("th", { scope: "col", text: t("Day") }), el("th", { scope: "col", class: "number", text: t("Score") }),
    el("th", { scope: "col", text: t("Builder") }), el("th", { scope: "col", class: "number", text: t("Plagues") }),
    el("th", { scope: "col", class: "number", text: t("Place") }));
  const body = shown.length ? dailyRows(shown)
    : [el("tr", {}, el("td", { colspan: "5", class: "empty", text: t("No game of the day finished yet.") }))];
  $("daily-table").replaceChildren(el("caption", { class: "visually-hidden", text: t("Games of the day, newest first") }),
    el("thead", {}, head), el("tbody", {}, ...body));
  const more = $("daily-more");
  more.hidden = all || history.days.length <= DAILY_SHOWN;
  more.textContent = nt("Show all {n} day", "Show all {n} days", history.days.length);
}

async function renderDaily(name) {
  let response;
  try {
    response = await fetch(`/api/daily/players/${encodeURIComponent(name)}`);
  } catch (error) {
    $("daily-error").textContent = t("The server did not answer; try again in a moment.");
    $("daily-panel").hidden = false;
    return;
  }
  if (response.status === 404) return; // no such player (told above), or no game of the day here
  const history = await response.json().catch(() => null);
  $("daily-panel").hidden = false;
  if (!response.ok || !history || !Array.isArray(history.days)) {
    $("daily-error").textContent = (history && (history.error || history.detail))
      || t("The games of the day cannot be shown ({status}).", { status: response.status });
    return;
  }
  $("daily-streaks").textContent = [
    nt("Current streak: {n} day", "Current streak: {n} days", history.streak),
    nt("best: {n} day", "best: {n} days", history.best_streak),
    nt("{n} day played", "{n} days played", history.played),
  ].join(" · ");
  renderDailyTable(history, false);
  $("daily-more").addEventListener("click", () => {
    renderDailyTable(history, true);
    const first = $("daily-table").querySelectorAll("tbody tr a")[DAILY_SHOWN];
    if (first) first.focus();
  }, { once: true });
}

// ------------------------------------------------------------------ friends.js, if served
function offerFriendsPanel(profile, me) {
  const panel = $("friends-panel");
  if (!panel) return;
  panel.dataset.player = profile.name;
  if (!me.account || me.account.name !== profile.name) return;
  const show = () => { if (panel.childElementCount) panel.hidden = false; };
  show();
  new MutationObserver(show).observe(panel, { childList: true });
}

// "Report this player": a logged-in visitor tells the administrators, with a reason.
function offerReport(name, me) {
  if (!me.account || me.account.name === name) return;
  const note = el("span", { class: "note", role: "status" });
  const button = el("button", { type: "button", id: "report-player", text: t("Report this player") });
  button.addEventListener("click", async () => {
    const reason = prompt(t("Why report {name}? The administrators read it.", { name }));
    if (!reason || !reason.trim()) return;
    const answer = await postJson("/api/reports", { kind: "player", player: name, reason: reason.slice(0, 500) });
    note.textContent = answer.ok ? ` ${t("Reported: an administrator will look at it.")}`
      : ` ${(answer.data && answer.data.error) || t("The report was refused ({status}).", { status: answer.status })}`;
  });
  $("friend-action").after(el("p", { class: "report-player" }, button, note));
}

// ------------------------------------------------------------------ blocking
// Block or unblock this player (not on your own profile): a blocked player's invitations,
// friend requests and chat lines stop reaching you, and they are not told.
async function mountBlockButton(name, me) {
  const anchor = $("friend-action");
  if (!anchor || !me.account || me.account.name.toLowerCase() === name.toLowerCase()) return;
  const response = await fetch("/api/blocks");
  if (!response.ok) return;
  const found = (await response.json()).blocked.find((entry) => entry.name.toLowerCase() === name.toLowerCase());
  const box = el("p", { class: "note", id: "block-action" });
  const button = el("button", { type: "button", id: "block-button", text: found ? t("Unblock {name}", { name }) : t("Block {name}", { name }) });
  button.addEventListener("click", async () => {
    let answer;
    if (found) {
      const done = await fetch(`/api/blocks/${found.id}`, { method: "DELETE", headers: writeHeaders() });
      answer = { ok: done.ok, status: done.status, data: await done.json().catch(() => null) };
    } else {
      answer = await postJson("/api/blocks", { name });
    }
    if (!answer.ok) {
      box.append(" ", el("span", { class: "error", role: "alert", text: (answer.data && answer.data.error) || t("Refused ({status}).", { status: answer.status }) }));
      return;
    }
    mountBlockButton(name, me);
  });
  box.append(button);
  if (found) box.append(" ", el("span", { role: "status", text: t("Blocked: their invitations, friend requests and chat lines do not reach you.") }));
  const before = $("block-action");
  if (before) before.replaceWith(box);
  else anchor.after(box);
}

async function load() {
  installTooltips();
  mountAccountBar();
  if (!playerName) { $("profile-error").textContent = t("Which player? The address names none."); return; }
  let response;
  try {
    response = await fetch(`/api/players/${encodeURIComponent(playerName)}`);
  } catch (error) {
    $("profile-error").textContent = t("The server did not answer; try again in a moment.");
    return;
  }
  const body = await response.json();
  if (!response.ok) { $("profile-error").textContent = body.error || t("This player cannot be shown."); return; }
  document.title = `Karnak: ${body.name}`;
  $("title").textContent = body.name;
  renderGames(body);
  renderRecent(body);
  renderDaily(body.name);
  offerFriendsPanel(body, await whoAmI());
  mountFriendButton($("friend-action"), body.name);
  mountBlockButton(body.name, await whoAmI());
  offerReport(body.name, await whoAmI());
  document.dispatchEvent(new CustomEvent("karnak:profile", { detail: { name: body.name } }));
}

load();
