// A game's leaderboard (/leaderboard/<game>): accounts and bots on one scale, best first by
// the conservative rating mu − 3 sigma, with rated games played and won; pages of 50 (the
// address's ?offset=), your own line marked. Names go in as text, never as HTML.
import { $, el, installTooltips } from "./dom.js";
import { mountAccountBar, whoAmI } from "./session.js";
import { formatNumber, t } from "./i18n.js";

const PAGE = 50;
const game = decodeURIComponent(location.pathname.split("/")[2] || "");
const offset = Math.max(0, Number.parseInt(new URLSearchParams(location.search).get("offset") || "0", 10) || 0);

function here(at) {
  return `/leaderboard/${encodeURIComponent(game)}${at ? `?offset=${at}` : ""}`;
}

async function renderTabs() {
  try {
    const games = await (await fetch("/api/games/available")).json();
    $("game-tabs").replaceChildren(...games.map((g) => el("li", {},
      el("a", { href: `/leaderboard/${encodeURIComponent(g.name)}`, "aria-current": g.name === game ? "page" : null, text: g.title }))));
  } catch (error) {
    $("game-tabs").replaceChildren();
  }
}

function nameCell(entry) {
  if (entry.kind === "bot") {
    return el("th", { scope: "row", class: "bot" }, el("span", { text: entry.name, "data-tip": t("A bot of the server, rated on the same scale as people") }),
      " ", el("small", { class: "bot-spec", text: entry.bot }));
  }
  return el("th", { scope: "row" }, el("a", { href: `/players/${encodeURIComponent(entry.name)}`, text: entry.name }));
}

function renderBoard(found, me) {
  const head = el("tr", {}, el("th", { scope: "col", class: "number", text: "#" }), el("th", { scope: "col", text: t("Player") }),
    el("th", { scope: "col", class: "number", text: t("Rating") }), el("th", { scope: "col", class: "number", text: t("Games") }),
    el("th", { scope: "col", class: "number", text: t("Wins") }));
  const mine = me.account ? me.account.name : null;
  const rows = found.entries.map((entry) => el("tr", { class: entry.kind === "account" && entry.name === mine ? "me" : null, "data-kind": entry.kind },
    el("td", { class: "number", text: formatNumber(entry.place) }),
    nameCell(entry),
    el("td", { class: "number rating", text: decimals(entry.rating, 1),
      "data-tip": t("mu {mu}, sigma {sigma}", { mu: decimals(entry.mu, 2), sigma: decimals(entry.sigma, 2) }) }),
    el("td", { class: "number", text: formatNumber(entry.games) }),
    el("td", { class: "number", text: formatNumber(entry.wins) })));
  const body = rows.length ? rows
    : [el("tr", {}, el("td", { colspan: "5", class: "empty", text: offset ? t("No more entries.") : t("Nobody is rated in this game yet: a rated game puts its players here.") }))];
  $("board").replaceChildren(el("caption", { class: "visually-hidden", text: t("{game}: ratings, best first", { game: found.title }) }),
    el("thead", {}, head), el("tbody", {}, ...body));
  const pager = [];
  if (offset > 0) pager.push(el("a", { href: here(Math.max(0, offset - PAGE)), id: "previous-page", text: t("Better ratings") }));
  if (found.total) pager.push(el("span", { text: t("{first}–{last} of {total}", { first: formatNumber(offset + 1), last: formatNumber(offset + found.entries.length), total: formatNumber(found.total) }) }));
  if (offset + found.entries.length < found.total) pager.push(el("a", { href: here(offset + PAGE), id: "next-page", text: t("Next ratings") }));
  $("pager").replaceChildren(...pager);
  $("board-panel").hidden = false;
}

function decimals(v, digits) {
  return formatNumber(v, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

async function load() {
  installTooltips();
  mountAccountBar();
  renderTabs();
  let response;
  try {
    response = await fetch(`/api/leaderboard/${encodeURIComponent(game)}?offset=${offset}&limit=${PAGE}`);
  } catch (error) {
    $("board-error").textContent = t("The server did not answer; try again in a moment.");
    return;
  }
  const found = await response.json();
  if (!response.ok) { $("board-error").textContent = found.error || t("This leaderboard cannot be shown."); return; }
  document.title = t("Karnak: {game} leaderboard", { game: found.title });
  $("title").textContent = t("{game} leaderboard", { game: found.title });
  renderBoard(found, await whoAmI());
}

load();
