// One tournament (/tournaments/<id>): its status (told politely as it changes), its format,
// the pace of its games and whether it is by invitation, its players, Join / Leave while it
// is open (by invitation: only for the invited, the others told why), Start for its creator,
// the standings with the winner once it is over, the report (each player's and each seat's
// share of the games with its Wilson 95% interval) and each round's pairings with the links
// to their games and the places once a game is over (a bye shown as such; an elimination as
// its rounds side by side, a bracket read left to right; a double elimination's rounds each
// split into the winners' bracket, the losers' bracket and the grand final; a pool's tables
// numbered). The creator of an open tournament by invitation invites accounts by name here.
// The page asks again every 5 s while the tournament is open or running: the server moves
// the rounds on by itself. Every refusal shows the server's words in a line of its own.
// Names go in as text, never as HTML.
import { $, el, installTooltips } from "./dom.js";
import { mountAccountBar, postJson, whoAmI, writeHeaders } from "./session.js";
import { formatDate, formatNumber, nt, pt, t } from "./i18n.js";
import { span } from "./clock.js";

const REFRESH_MS = 5000;
const KNOCKOUTS = ["elimination", "double"];
const BRACKETS = ["winners", "losers", "final"];
const MOST_NAMES = 64; // the names one invitation request takes (the server's bound)
const id = decodeURIComponent(location.pathname.split("/")[2] || "");
const here = `/api/tournaments/${encodeURIComponent(id)}`;
let me = { account: null };
let seen = ""; // the last answer drawn: one that changes nothing keeps the page (and focus)
let timer = null;
let asked = 0; // the requests made: only the answer to the latest one is drawn

function formatLabel(format) {
  if (format === "swiss") return t("Swiss");
  if (format === "elimination") return t("Elimination");
  if (format === "double") return t("Double elimination");
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
    if (KNOCKOUTS.includes(tournament.format)) return t("Running: round {round}.", { round: formatNumber(tournament.round) });
    return t("Running: round {round} of {rounds}.", { round: formatNumber(tournament.round), rounds: formatNumber(tournament.rounds) });
  }
  if (tournament.status === "finished") return t("This tournament is finished.");
  return t("This tournament was cancelled.");
}

// How fast its games go: a time per move and a bank (real-time or turn-based), a turn
// timer, or no clock at all.
function paceText(tournament) {
  const control = tournament.time_control;
  if (control) {
    const times = { move: span(control.per_move), bank: span(control.bank) };
    return tournament.pace === "turn-based"
      ? t("turn-based: {move} a move, then a bank of {bank}", times)
      : t("real-time: {move} a move, then a bank of {bank}", times);
  }
  if (tournament.turn_timer) return t("turn timer: {time} a decision", { time: span(tournament.turn_timer) });
  return t("no clock");
}

function renderAbout(tournament) {
  const facts = [tournament.title, formatLabel(tournament.format)];
  if (!KNOCKOUTS.includes(tournament.format)) facts.push(nt("{n} round", "{n} rounds", tournament.rounds, { n: formatNumber(tournament.rounds) }));
  facts.push(nt("at most {n} player", "at most {n} players", tournament.max_players, { n: formatNumber(tournament.max_players) }));
  facts.push(tournament.bots ? t("bots fill the field ({level})", { level: tournament.bots }) : t("no bots"));
  facts.push(paceText(tournament));
  facts.push(tournament.invite_only ? t("by invitation") : t("open to all"));
  const line = [facts.join(" · ")];
  if (tournament.starts_at && tournament.status === "open") {
    line.push(" · ", t("starts at"), " ",
      el("time", { datetime: tournament.starts_at, text: formatDate(new Date(tournament.starts_at), { dateStyle: "medium", timeStyle: "short" }) }));
  }
  $("facts").replaceChildren(...line);
  $("status").textContent = statusText(tournament);
  $("status").dataset.status = tournament.status;
  const champion = tournament.status === "finished" && tournament.standings.length ? tournament.standings[0].name : null;
  $("winner").textContent = champion ? t("Winner: {name}", { name: champion }) : "";
  $("winner").hidden = !champion;
  const open = tournament.status === "open";
  const barred = tournament.may_join === false; // by invitation, and not invited
  $("join").hidden = !(open && me.account && !tournament.joined && !barred);
  $("leave").hidden = !(open && me.account && tournament.joined);
  $("start").hidden = !(open && me.account && tournament.yours);
  let note = "";
  if (open && me.account && !tournament.joined && tournament.invite_only) {
    note = barred
      ? t("This tournament is by invitation: only the players its creator invites may join.")
      : tournament.yours ? "" : t("You are invited to this tournament: join to play.");
  }
  $("join-note").textContent = note;
  $("join-note").hidden = !note;
  $("about-panel").hidden = false;
}

function renderPlayers(tournament) {
  const items = tournament.players.map((player) => el("li", { "data-kind": player.kind },
    player.kind === "bot" ? el("span", { class: "bot", text: player.name })
      : el("a", { href: `/players/${encodeURIComponent(player.name)}`, text: player.name })));
  $("players").replaceChildren(...(items.length ? items : [el("li", { class: "empty", text: t("Nobody has joined yet.") })]));
  $("players-panel").hidden = false;
}

// Its creator's invitations while it is open: the form stays as typed, the list follows.
function renderInvitations(tournament) {
  const shown = Boolean(tournament.yours && tournament.invite_only && tournament.status === "open" && tournament.invited);
  $("invite-panel").hidden = !shown;
  if (!shown) return;
  const items = tournament.invited.map((name) => el("li", {}, el("a", { href: `/players/${encodeURIComponent(name)}`, text: name })));
  $("invited").replaceChildren(...(items.length ? items : [el("li", { class: "empty", text: t("Nobody is invited yet.") })]));
}

function renderStandings(tournament) {
  const swiss = tournament.format === "swiss";
  const head = el("tr", {}, el("th", { scope: "col", class: "number", text: "#" }), el("th", { scope: "col", text: t("Player") }),
    el("th", { scope: "col", class: "number", text: t("Points") }),
    ...(swiss ? [el("th", { scope: "col", class: "number", text: t("Buchholz") })] : []));
  const mine = me.account ? me.account.name : null;
  const rows = tournament.standings.map((row) => el("tr", { class: row.name === mine ? "me" : null },
    el("td", { class: "number", text: formatNumber(row.place) }),
    el("th", { scope: "row", text: row.name }),
    el("td", { class: "number", text: formatNumber(row.points) }),
    ...(swiss ? [el("td", { class: "number", text: row.buchholz === null ? "" : formatNumber(row.buchholz) })] : [])));
  const body = rows.length ? rows : [el("tr", {}, el("td", { colspan: swiss ? "4" : "3", class: "empty", text: t("The standings start with the first round.") }))];
  $("standings").replaceChildren(el("caption", { class: "visually-hidden", text: t("Standings, best first") }),
    el("thead", {}, head), el("tbody", {}, ...body));
  $("standings-panel").hidden = tournament.status === "open" && !tournament.standings.length;
}

// ------------------------------------------------------------------ the report
function percent(share) {
  return formatNumber(share, { style: "percent", maximumFractionDigits: 0 });
}

// A row's numbers: games, score, share and its interval ("48% – 91%"); no games, dashes.
function reportCells(row) {
  const played = row.games > 0 && row.share !== null;
  const interval = played ? `${percent(row.interval[0])} – ${percent(row.interval[1])}` : "–";
  return [
    el("td", { class: "number", text: formatNumber(row.games) }),
    el("td", { class: "number", text: formatNumber(row.score, { maximumFractionDigits: 2 }) }),
    el("td", { class: "number share", text: played ? percent(row.share) : "–" }),
    el("td", { class: "number interval", text: interval }),
  ];
}

function reportHead(first, extra) {
  return el("tr", {}, el("th", { scope: "col", text: first }),
    el("th", { scope: "col", class: "number", text: t("Games") }),
    el("th", { scope: "col", class: "number", text: t("Score") }),
    el("th", { scope: "col", class: "number", text: pt("tournament", "Share") }),
    el("th", { scope: "col", class: "number", text: t("95% interval") }),
    ...extra);
}

function renderReport(tournament) {
  const report = tournament.report || { players: [], seats: [] };
  const shown = report.players.some((row) => row.games > 0);
  $("report-panel").hidden = !shown;
  if (!shown) return;
  const place = new Map(tournament.standings.map((row) => [row.name, row.place]));
  const players = [...report.players].sort((a, b) => (place.get(a.name) ?? Infinity) - (place.get(b.name) ?? Infinity));
  const mine = me.account ? me.account.name : null;
  $("report-players").replaceChildren(el("caption", { text: t("Each player, in the order of the standings") }),
    el("thead", {}, reportHead(t("Player"), [el("th", { scope: "col", class: "number", text: t("Games in seat 1") })])),
    el("tbody", {}, ...players.map((row) => el("tr", { class: row.name === mine ? "me" : null },
      el("th", { scope: "row", text: row.name }), ...reportCells(row),
      el("td", { class: "number", text: formatNumber(row.first_seats) })))));
  $("report-seats").replaceChildren(el("caption", { text: t("Each seat, over every game") }),
    el("thead", {}, reportHead(t("Seat"), [])),
    el("tbody", {}, ...report.seats.map((row) => el("tr", { "data-seat": String(row.seat) },
      el("th", { scope: "row", text: t("Seat {n}", { n: formatNumber(row.seat) }) }), ...reportCells(row)))));
}

// ------------------------------------------------------------------ the rounds
function gameItem(game, label) {
  const attrs = { "data-bracket": game.bracket || null, "data-seats": String(game.seats.length) };
  if (game.bye) return el("li", { class: "bye", ...attrs }, t("{name}: bye", { name: game.seats[0] }));
  const seats = label ? [el("strong", { class: "table-label", text: label }), " "] : [];
  game.seats.forEach((name, seat) => {
    if (seat) seats.push(" – ");
    const won = game.places && game.places[seat] === 1;
    seats.push(el("span", { class: won ? "winner" : null, text: name }));
    if (game.places) seats.push(" ", el("small", { text: t("(place {place})", { place: formatNumber(game.places[seat]) }) }));
    if ((game.left || []).includes(seat)) seats.push(" ", el("small", { text: t("(left)") }));
  });
  const link = game.url ? el("a", { href: game.url, class: "game-link", text: game.places ? t("the game") : t("watch or play") }) : null;
  return el("li", { class: game.places ? "over" : "playing", ...attrs }, ...seats, link ? " · " : "", link || "",
    game.places ? "" : " ", game.places ? "" : el("span", { class: "note", text: t("(still playing)") }));
}

// A single elimination's rounds by what they are: the last one the final, the one before
// the semi-finals (a bracket of 2^k places has k rounds).
function eliminationHeading(tournament, number) {
  let size = 1;
  let rounds = 0;
  while (size < tournament.players.length) { size *= 2; rounds += 1; }
  if (number === rounds) return t("Final");
  if (number === rounds - 1 && rounds >= 2) return t("Semi-finals");
  return t("Round {round}", { round: formatNumber(number) });
}

function bracketHeading(bracket, replayed) {
  if (bracket === "winners") return t("Winners' bracket");
  if (bracket === "losers") return t("Losers' bracket");
  return replayed ? t("Grand final, played again") : t("Grand final");
}

// A double elimination's round: its games under their bracket's heading, the winners'
// first. `finals` counts the grand finals of the rounds before (a second one is the replay
// after the unbeaten player's first loss).
function doubleRound(round, finals) {
  const groups = BRACKETS.map((bracket) => {
    const games = round.games.filter((game) => (game.bracket || "winners") === bracket);
    if (!games.length) return null;
    const heading = bracketHeading(bracket, bracket === "final" && finals > 0);
    return el("section", { class: "bracket-group", "data-bracket": bracket, "aria-label": heading },
      el("h4", { text: heading }), el("ol", { class: "round-games" }, ...games.map((game) => gameItem(game, null))));
  }).filter(Boolean);
  return groups;
}

function renderSchedule(tournament) {
  let finals = 0;
  const rounds = tournament.schedule.map((round) => {
    const heading = tournament.format === "elimination" ? eliminationHeading(tournament, round.round)
      : t("Round {round}", { round: formatNumber(round.round) });
    let body;
    if (tournament.format === "double") {
      body = doubleRound(round, finals);
      finals += round.games.filter((game) => game.bracket === "final").length;
    } else {
      const pools = tournament.format === "pools";
      body = [el("ol", { class: "round-games" }, ...round.games.map((game, index) => gameItem(game,
        pools ? t("Table {n}:", { n: formatNumber(index + 1) }) : null)))];
    }
    return el("section", { class: "round", "aria-label": heading, "data-round": String(round.round) },
      el("h3", { text: heading }), ...body);
  });
  const box = el("div", { class: KNOCKOUTS.includes(tournament.format) ? "bracket" : "rounds" }, ...rounds);
  $("schedule").replaceChildren(rounds.length ? box : el("p", { class: "note", text: t("The pairings are published when a round starts.") }));
  $("schedule-panel").hidden = false;
}

// The tournament as the server tells it now, drawn; STALE when a later request was made
// meanwhile (an action's answer, say): that one draws instead, so an older answer arriving
// last never puts the page back.
const STALE = Symbol("stale");

async function refresh() {
  const mine = ++asked;
  const answer = await ask(here);
  if (mine !== asked) return STALE;
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
    renderInvitations(tournament);
    renderPlayers(tournament);
    renderStandings(tournament);
    renderReport(tournament);
    renderSchedule(tournament);
  }
  return tournament;
}

async function loop() {
  clearTimeout(timer);
  const tournament = await refresh();
  if (tournament === STALE) return; // the later request's loop goes on
  clearTimeout(timer);
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

// ------------------------------------------------------------------ inviting
// The names typed, separated by commas or new lines, each once (whatever its case).
function typedNames() {
  const names = [];
  const seenNames = new Set();
  for (const part of $("invite-names").value.split(/[,\n;]+/)) {
    const name = part.trim();
    if (name && !seenNames.has(name.toLowerCase())) {
      seenNames.add(name.toLowerCase());
      names.push(name);
    }
  }
  return names;
}

async function invite(event) {
  event.preventDefault();
  $("invite-error").textContent = "";
  $("invite-result").replaceChildren();
  const names = typedNames();
  if (!names.length) { $("invite-error").textContent = t("Write at least one name."); return; }
  if (names.length > MOST_NAMES) {
    $("invite-error").textContent = t("At most {most} names at a time.", { most: formatNumber(MOST_NAMES) });
    return;
  }
  $("invite").disabled = true;
  let answer;
  try { answer = await postJson(`${here}/invitations`, { names }); } catch { answer = { ok: false, status: 0, data: null }; }
  $("invite").disabled = false;
  if (!answer.ok) { $("invite-error").textContent = problem(answer, t("These players cannot be invited.")); return; }
  const invited = answer.data.invited || [];
  const unknown = answer.data.unknown || [];
  const told = new Set([...invited, ...unknown].map((name) => name.toLowerCase()));
  const already = names.filter((name) => !told.has(name.toLowerCase()));
  const lines = [];
  if (invited.length) lines.push(el("span", { class: "invited-now", text: t("Invited: {names}.", { names: invited.join(", ") }) }));
  if (already.length) lines.push(el("span", { class: "invited-before", text: t("Invited already: {names}.", { names: already.join(", ") }) }));
  if (unknown.length) lines.push(el("span", { class: "unknown-names", text: t("No account has these names: {names}.", { names: unknown.join(", ") }) }));
  $("invite-result").replaceChildren(...lines.flatMap((line, index) => (index ? [" ", line] : [line])));
  $("invite-names").value = unknown.join(", "); // what is left to correct
  loop();
}

async function load() {
  installTooltips();
  mountAccountBar();
  me = await whoAmI();
  $("join").addEventListener("click", () => act($("join"), () => postJson(`${here}/join`), t("You cannot join this tournament.")));
  $("leave").addEventListener("click", () => act($("leave"), () => ask(`${here}/join`, { method: "DELETE", headers: writeHeaders() }), t("You cannot leave this tournament.")));
  $("start").addEventListener("click", () => act($("start"), () => postJson(`${here}/start`), t("This tournament cannot start.")));
  $("invite-form").addEventListener("submit", invite);
  loop();
}

load();
