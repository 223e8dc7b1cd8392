// One tournament (/tournaments/<id>): its status (told politely as it changes), its players,
// Join / Leave while it is open, Start for its creator, the standings, and each round's
// pairings with the links to their games and the places once a game is over (a bye shown
// as such; an elimination as its rounds side by side, a bracket read left to right). The page
// asks again every 5 s while the tournament is open or running: the server moves the rounds
// on by itself. Every refusal shows the server's words in a line of its own. Names go in as
// text, never as HTML.
import { $, el, installTooltips } from "./dom.js";
import { mountAccountBar, postJson, whoAmI, writeHeaders } from "./session.js";
import { formatDate, formatNumber, nt, t } from "./i18n.js";

const REFRESH_MS = 5000;
const id = decodeURIComponent(location.pathname.split("/")[2] || "");
const here = `/api/tournaments/${encodeURIComponent(id)}`;
let me = { account: null };
let seen = ""; // the last answer drawn: one that changes nothing keeps the page (and focus)
let timer = null;

function formatLabel(format) {
  if (format === "swiss") return t("Swiss");
  if (format === "elimination") return t("Elimination");
  return t("Pools");
}

async function ask(path, init = {}) {
  try {
    const response = await fetch(path, { headers: { Accept: "application/json" }, ...init });
    let data = null;
    try { data = await response.json(); } catch { data = null; }
    return { ok: response.ok, status: response.status, data };
  } catch {
    return { ok: false, status: 0, data: null };
  }
}

function problem(answer, fallback) {
  if (answer.status === 0) return t("The server did not answer; try again in a moment.");
  const data = answer.data || {};
  return (typeof data.error === "string" && data.error) || fallback;
}

function statusText(tournament) {
  if (tournament.status === "open") {
    return t("Open: {players} of {most} players have joined.", { players: formatNumber(tournament.players.length), most: formatNumber(tournament.max_players) });
  }
  if (tournament.status === "running") {
    if (tournament.format === "elimination") return t("Running: round {round}.", { round: formatNumber(tournament.round) });
    return t("Running: round {round} of {rounds}.", { round: formatNumber(tournament.round), rounds: formatNumber(tournament.rounds) });
  }
  if (tournament.status === "finished") return t("This tournament is finished.");
  return t("This tournament was cancelled.");
}

function renderAbout(tournament) {
  const facts = [tournament.title, formatLabel(tournament.format)];
  if (tournament.format !== "elimination") facts.push(nt("{n} round", "{n} rounds", tournament.rounds, { n: formatNumber(tournament.rounds) }));
  facts.push(nt("at most {n} player", "at most {n} players", tournament.max_players, { n: formatNumber(tournament.max_players) }));
  facts.push(tournament.bots ? t("bots fill the field ({level})", { level: tournament.bots }) : t("no bots"));
  const line = [facts.join(" · ")];
  if (tournament.starts_at && tournament.status === "open") {
    line.push(" · ", t("starts at"), " ",
      el("time", { datetime: tournament.starts_at, text: formatDate(new Date(tournament.starts_at), { dateStyle: "medium", timeStyle: "short" }) }));
  }
  $("facts").replaceChildren(...line);
  $("status").textContent = statusText(tournament);
  $("status").dataset.status = tournament.status;
  const open = tournament.status === "open";
  $("join").hidden = !(open && me.account && !tournament.joined);
  $("leave").hidden = !(open && me.account && tournament.joined);
  $("start").hidden = !(open && me.account && tournament.yours);
  $("about-panel").hidden = false;
}

function renderPlayers(tournament) {
  const items = tournament.players.map((player) => el("li", { "data-kind": player.kind },
    player.kind === "bot" ? el("span", { class: "bot", text: player.name })
      : el("a", { href: `/players/${encodeURIComponent(player.name)}`, text: player.name })));
  $("players").replaceChildren(...(items.length ? items : [el("li", { class: "empty", text: t("Nobody has joined yet.") })]));
  $("players-panel").hidden = false;
}

function renderStandings(tournament) {
  const swiss = tournament.format === "swiss";
  const head = el("tr", {}, el("th", { scope: "col", class: "number", text: "#" }), el("th", { scope: "col", text: t("Player") }),
    el("th", { scope: "col", class: "number", text: t("Points") }),
    swiss ? el("th", { scope: "col", class: "number", text: t("Buchholz") }) : null);
  const mine = me.account ? me.account.name : null;
  const rows = tournament.standings.map((row) => el("tr", { class: row.name === mine ? "me" : null },
    el("td", { class: "number", text: formatNumber(row.place) }),
    el("th", { scope: "row", text: row.name }),
    el("td", { class: "number", text: formatNumber(row.points) }),
    swiss ? el("td", { class: "number", text: row.buchholz === null ? "" : formatNumber(row.buchholz) }) : null));
  const body = rows.length ? rows : [el("tr", {}, el("td", { colspan: swiss ? "4" : "3", class: "empty", text: t("The standings start with the first round.") }))];
  $("standings").replaceChildren(el("caption", { class: "visually-hidden", text: t("Standings, best first") }),
    el("thead", {}, head), el("tbody", {}, ...body));
  $("standings-panel").hidden = tournament.status === "open" && !tournament.standings.length;
}

function gameItem(game) {
  if (game.bye) return el("li", { class: "bye" }, t("{name}: bye", { name: game.seats[0] }));
  const seats = [];
  game.seats.forEach((name, seat) => {
    if (seats.length) seats.push(" – ");
    const won = game.places && game.places[seat] === 1;
    seats.push(el("span", { class: won ? "winner" : null, text: name }));
    if (game.places) seats.push(" ", el("small", { text: t("(place {place})", { place: formatNumber(game.places[seat]) }) }));
    if ((game.left || []).includes(seat)) seats.push(" ", el("small", { text: t("(left)") }));
  });
  const link = game.url ? el("a", { href: game.url, class: "game-link", text: game.places ? t("the game") : t("watch or play") }) : null;
  return el("li", { class: game.places ? "over" : "playing" }, ...seats, link ? " · " : "", link || "",
    game.places ? "" : " ", game.places ? "" : el("span", { class: "note", text: t("(still playing)") }));
}

function renderSchedule(tournament) {
  const rounds = tournament.schedule.map((round) => {
    const last = tournament.format === "elimination" && tournament.status === "finished" && round.round === tournament.schedule.length;
    const heading = last ? t("Final") : t("Round {round}", { round: formatNumber(round.round) });
    return el("section", { class: "round", "aria-label": heading, "data-round": String(round.round) },
      el("h3", { text: heading }), el("ol", { class: "round-games" }, ...round.games.map(gameItem)));
  });
  const box = el("div", { class: tournament.format === "elimination" ? "bracket" : "rounds" }, ...rounds);
  $("schedule").replaceChildren(rounds.length ? box : el("p", { class: "note", text: t("The pairings are published when a round starts.") }));
  $("schedule-panel").hidden = false;
}

async function refresh() {
  const answer = await ask(here);
  if (!answer.ok) {
    $("tournament-error").textContent = problem(answer, t("This tournament cannot be shown."));
    return null;
  }
  $("tournament-error").textContent = "";
  const tournament = answer.data;
  const text = JSON.stringify(tournament);
  if (text !== seen) {
    seen = text;
    document.title = t("Karnak: {name}", { name: tournament.name });
    $("title").textContent = tournament.name;
    renderAbout(tournament);
    renderPlayers(tournament);
    renderStandings(tournament);
    renderSchedule(tournament);
  }
  return tournament;
}

async function loop() {
  clearTimeout(timer);
  const tournament = await refresh();
  if (!tournament || tournament.status === "open" || tournament.status === "running") {
    timer = setTimeout(loop, REFRESH_MS);
  }
}

async function act(button, run, fallback) {
  $("action-error").textContent = "";
  button.disabled = true;
  let answer;
  try { answer = await run(); } catch { answer = { ok: false, status: 0, data: null }; }
  button.disabled = false;
  if (!answer.ok) { $("action-error").textContent = problem(answer, fallback); return; }
  loop();
}

async function load() {
  installTooltips();
  mountAccountBar();
  me = await whoAmI();
  $("join").addEventListener("click", () => act($("join"), () => postJson(`${here}/join`), t("You cannot join this tournament.")));
  $("leave").addEventListener("click", () => act($("leave"), () => ask(`${here}/join`, { method: "DELETE", headers: writeHeaders() }), t("You cannot leave this tournament.")));
  $("start").addEventListener("click", () => act($("start"), () => postJson(`${here}/start`), t("This tournament cannot start.")));
  loop();
}

load();
