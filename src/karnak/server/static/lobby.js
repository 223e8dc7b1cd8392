// The lobby: each game as a card with "Play now" (lobby_cards.js); behind "More options" a
// new game's seats (people, or bots by level: Medium unless chosen), options and timer, its
// links; the running and finished games. A game against bots alone opens the creator's seat
// at once; invite links are shown where people are still to come. Quick match (people of a
// like rating, or bots after a wait) is quickmatch.js; crowd tables (a big game at a set
// time) are crowds.js.
import { $, el, installTooltips } from "./dom.js";
import { t, nt } from "./i18n.js";
import { mountAccountBar, whoAmI, writeHeaders } from "./session.js";
import { createTable, mountTables } from "./tables.js";
import { ownSeatUrl, playerRange, renderCards } from "./lobby_cards.js";
import { mountQuickMatch } from "./quickmatch.js";
import { mountCrowds } from "./crowds.js";

const MORE_KEY = "karnak.lobby.more"; // "More options" left open: this browser remembers it

let games = [];

function savedLinks() {
  try { return JSON.parse(localStorage.getItem("karnak.links") || "{}"); } catch { return {}; }
}

function rememberLinks(created) {
  const all = savedLinks();
  all[created.id] = created.seats.filter((s) => s.url).map((s) => ({ name: s.name, url: s.url }));
  localStorage.setItem("karnak.links", JSON.stringify(all));
}

function currentGame() { return games.find((g) => g.name === $("game").value); }

const range = playerRange;

// ------------------------------------------------------------------ the games
function renderCatalogue() {
  renderCards($("catalogue"), games, rememberLinks);
}

function renderGameInfo() {
  const game = currentGame();
  $("game-info").textContent = `${range(game)} · ${game.playing_time}. ${game.description}`;
}

function wireMoreOptions() {
  const more = $("more-options");
  try { if (localStorage.getItem(MORE_KEY) === "open") more.open = true; } catch { /* private mode */ }
  more.addEventListener("toggle", () => {
    try { localStorage.setItem(MORE_KEY, more.open ? "open" : "closed"); } catch { /* private mode */ }
  });
}

// ------------------------------------------------------------------ bot levels
// The server sends each game's levels (easy to master) for every number of bot seats: a big
// table's search levels think less, so that its bots stay within the server's limits, and
// its default level is the strongest one that keeps a round quick.
function band(bots) {
  const bands = currentGame().levels;
  return bands.find((b) => bots >= b.bots_from && bots <= b.bots_to) || bands[bands.length - 1];
}

function botCount() {
  return [...document.querySelectorAll(".seat-row .kind")].filter((k) => k.value === "bot").length;
}

// A seat's level select offers the levels by name; each option's value is the bot spec
// it stands for at this table. A level the person chose stays chosen; the others start at
// the band's default: Medium, or lower where a big table cannot carry it (the server says).
function startLevel(current) {
  return current.default;
}

function fillLevels(select, levels, fallback) {
  const wanted = select.dataset.chosen ? select.dataset.level : fallback;
  select.replaceChildren(...levels.map((level) =>
    el("option", { value: level.spec, "data-level": level.name, text: level.label, title: level.spec, selected: level.name === wanted ? "" : null })));
  select.dataset.level = wanted;
}

function refreshLevels() {
  const current = band(Math.max(1, botCount()));
  for (const select of document.querySelectorAll(".seat-row .level")) fillLevels(select, current.levels, startLevel(current));
  const fill = $("fill-kind");
  if (fill) {
    const keep = fill.value;
    fill.replaceChildren(el("option", { value: "human", text: t("Person") }),
      ...current.levels.map((level) => el("option", { value: level.name, text: t("Bot, {level}", { level: level.label }) })));
    fill.value = keep && [...fill.options].some((o) => o.value === keep) ? keep : startLevel(current);
  }
}

function chooseLevel(select) {
  select.dataset.chosen = "1";
  select.dataset.level = select.selectedOptions[0].dataset.level;
}

// ------------------------------------------------------------------ seats
function renderPlayers(fresh = false) {
  const game = currentGame();
  const select = $("players");
  // keep the chosen count when the new game allows it (Amun-Re 3-5, Aton 2)
  const wanted = Number(select.value) || 4;
  const keep = Math.min(game.max_players, Math.max(game.min_players, wanted));
  select.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n++) {
    const label = n === 1 ? t("1 player (solo)") : nt("{n} player", "{n} players", n, { n });
    select.append(el("option", { value: n, text: label, selected: n === keep ? "" : null }));
  }
  renderSeats(fresh);
}

function renderFill(count) {
  // with many seats, one control sets every seat after the first
  if (count < 4) return;
  const kind = el("select", { id: "fill-kind", "aria-label": t("Every seat after the first") });
  const apply = el("button", { type: "button", id: "fill-apply", text: t("Apply") });
  apply.addEventListener("click", () => {
    const human = kind.value === "human";
    for (const row of [...$("seats").querySelectorAll(".seat-row")].slice(1)) {
      row.querySelector(".kind").value = human ? "human" : "bot";
      const level = row.querySelector(".level");
      level.hidden = human;
      if (!human) { level.dataset.chosen = "1"; level.dataset.level = kind.value; }
    }
    refreshLevels();
  });
  $("seats").prepend(el("div", { class: "fill-row" }, el("span", { text: t("Seats 2 and on:") }), kind, apply));
}

// fresh: a new game was chosen, so every seat starts again from the defaults (the first a
// person, the others bots at the default level); otherwise the seats kept keep their kind,
// name and level, and new seats are bots.
function renderSeats(fresh = false) {
  const count = Number($("players").value);
  const box = $("seats");
  const old = fresh ? [] : [...box.querySelectorAll(".seat-row")];
  box.replaceChildren();
  for (let i = 0; i < count; i++) {
    const previous = old[i];
    const kind = previous ? previous.querySelector(".kind").value : (i === 0 ? "human" : "bot");
    const row = el("div", { class: "seat-row", "data-seat": i });
    const kindSelect = el("select", { class: "kind", "aria-label": t("Seat {n}: person or bot", { n: i + 1 }) },
      el("option", { value: "human", text: t("Person"), selected: kind === "human" ? "" : null }),
      el("option", { value: "bot", text: t("Bot"), selected: kind === "bot" ? "" : null }),
      el("option", { value: "open", text: t("Open seat (anyone joins)"), selected: kind === "open" ? "" : null }));
    const name = el("input", { class: "name", placeholder: t("Seat {n} name (optional)", { n: i + 1 }), maxlength: 40,
      "aria-label": t("Seat {n} name", { n: i + 1 }), value: previous ? previous.querySelector(".name").value : "" });
    const level = el("select", { class: "level", "aria-label": t("Seat {n} bot level", { n: i + 1 }) });
    if (previous && previous.querySelector(".level").dataset.chosen) {
      level.dataset.chosen = "1";
      level.dataset.level = previous.querySelector(".level").dataset.level;
    }
    level.hidden = kind !== "bot";
    kindSelect.addEventListener("change", () => { level.hidden = kindSelect.value !== "bot"; refreshLevels(); });
    level.addEventListener("change", () => chooseLevel(level));
    row.append(el("span", { class: "seat-label", text: t("Seat {n}", { n: i + 1 }) }), kindSelect, name, level);
    box.append(row);
  }
  renderFill(count);
  refreshLevels();
}

// ------------------------------------------------------------------ options
function renderOptions() {
  const box = $("options");
  box.replaceChildren(el("legend", { text: t("Options") }));
  box.hidden = !currentGame().options.length; // Aton has none
  for (const option of currentGame().options) {
    let input;
    const extra = currentGame().lobby || {};
    if (option.name === "cards" && extra.cards) {
      box.append(cardChoices(extra.cards, option.help));
      continue;
    }
    if (typeof option.default === "boolean") {
      input = el("input", { type: "checkbox", "data-option": option.name, checked: option.default ? "" : null });
    } else if (!option.choices.length) {
      input = el("input", { type: "text", "data-option": option.name, value: option.default, placeholder: option.help });
    } else {
      input = el("select", { "data-option": option.name },
        ...option.choices.map((c) => el("option", { value: c, text: c, selected: c === option.default ? "" : null })));
    }
    box.append(el("label", { class: "option" }, input, ` ${option.name.replaceAll("_", " ")}: ${option.help}`));
  }
}

// Egyptia's Pharaoh cards: one of each letter, chosen here or drawn at random.
function cardChoices(cards, help) {
  const box = el("div", { class: "card-choices", "data-option-group": "cards", "data-tip": help },
    el("p", { class: "note", text: t("Pharaoh cards (one of each letter; left at random, it is drawn):") }));
  for (const letter of ["A", "B", "C", "D", "E"]) {
    const select = el("select", { "data-card-letter": letter, "aria-label": t("Pharaoh card {letter}", { letter }) },
      el("option", { value: "", text: t("{letter}: drawn at random", { letter }) }),
      ...cards.filter((c) => c.letter === letter).map((c) => el("option", { value: c.id, text: `${c.id}: ${c.text}` })));
    box.append(el("label", { class: "option" }, select));
  }
  return box;
}

// ------------------------------------------------------------------ creating a game
async function createGame(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const seats = [...document.querySelectorAll(".seat-row")].map((row) => {
    const kind = row.querySelector(".kind").value;
    const name = row.querySelector(".name").value.trim() || null;
    return kind === "bot" ? { kind, name, bot: row.querySelector(".level").value } : { kind, name };
  });
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    options[input.dataset.option] = input.type === "checkbox" ? input.checked : input.value;
  }
  const cards = [...document.querySelectorAll("[data-card-letter]")].map((s) => s.value).filter(Boolean);
  if (document.querySelector("[data-card-letter]")) options.cards = cards.join(",");
  const timer = $("turn-timer").value;
  const body = { game: $("game").value, seats, options, turn_timer: timer ? Number(timer) : null };
  body.time_control = timeControl(); // a time bank (see "the time bank" below)
  $("create").disabled = true;
  try {
    if (seats.some((s) => s.kind === "open")) { await createTable(body); return; } // an open table: tables.js
    const first = seats.find((s) => s.kind === "human"); // a logged-in creator's own seat is theirs
    const mine = Boolean(first && (await whoAmI()).account);
    if (mine) first.mine = true;
    const response = await fetch("/api/games", {
      method: "POST", headers: writeHeaders(), body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) {
      $("create-error").textContent = answer.error || JSON.stringify(answer.detail || answer);
      return;
    }
    rememberLinks(answer);
    // against bots alone the creator goes straight to the seat; with people to invite, the
    // links are shown here (the creator's own among them)
    if (seats.filter((s) => s.kind === "human").length <= 1) { location.assign(ownSeatUrl(answer, mine)); return; }
    showLinks(answer);
    refreshGames();
  } catch (error) {
    $("create-error").textContent = t("The server did not answer: {error}", { error: String(error) });
  } finally {
    $("create").disabled = false;
  }
}

function showLinks(created) {
  const list = $("links");
  list.replaceChildren();
  for (const seat of created.seats) {
    if (!seat.url) {
      list.append(el("li", {}, el("strong", { text: seat.name, title: seat.bot }), " ", t("plays as a bot")));
      continue;
    }
    const full = new URL(seat.url, location.origin).href;
    const copy = el("button", { type: "button", class: "copy", text: t("Copy link"), "aria-label": t("Copy the link for {name}", { name: seat.name }) });
    copy.addEventListener("click", () => navigator.clipboard?.writeText(full));
    list.append(el("li", {}, el("strong", { text: seat.name }), " ",
      el("a", { href: seat.url, class: "seat-link", "data-seat": seat.seat, text: t("Play this seat") }), " ", copy,
      el("input", { class: "link-text", readonly: "", value: full, "aria-label": t("Link for {name}", { name: seat.name }) })));
  }
  list.append(el("li", {}, t("Spectators:"), " ", el("a", { href: created.spectator_url, text: t("watch") })));
  $("created").hidden = false;
}

// ------------------------------------------------------------------ the time bank
// A time per move and a bank for each person (karnak.server.timebank, docs/players.md):
// the option's value is "per_move,bank" in seconds. A game has a turn timer or a time bank,
// so choosing one sets the other back to none.
function timeControl() {
  const value = $("time-control").value;
  if (!value) return null;
  const [perMove, bank] = value.split(",").map(Number);
  return { per_move: perMove, bank };
}

function wireTimeControl() {
  $("time-control").addEventListener("change", () => { if ($("time-control").value) $("turn-timer").value = ""; });
  $("turn-timer").addEventListener("change", () => { if ($("turn-timer").value) $("time-control").value = ""; });
}

// ------------------------------------------------------------------ the games' lists
async function refreshGames() {
  let list = [];
  try { list = await (await fetch("/api/games")).json(); } catch { return; }
  const links = savedLinks();
  const running = $("running"), finished = $("finished");
  running.replaceChildren(); finished.replaceChildren();
  for (const game of list) {
    // a bot by its name (its level: "Medium bot"), the bot behind it on hover
    const people = game.players.map((p) => el("span", { class: p.kind === "bot" ? "player bot" : "player", text: p.name, title: p.kind === "bot" ? p.bot : null }));
    // a table of 99 builders is named by its first few
    const shown = people.length > 6 ? people.slice(0, 4) : people;
    const who = [];
    shown.forEach((person, i) => { if (i) who.push(", "); who.push(person); });
    if (shown.length < people.length) who.push(" ", t("and {n} more", { n: people.length - shown.length }));
    // a finished game counts its moves as its replay does (every move of the record, the
    // sealed ones too); a running game, the moves everyone has seen so far
    const count = game.status === "finished" && Number.isInteger(game.moves)
      ? el("span", { class: "moves", "data-moves": game.moves, text: nt("{n} move", "{n} moves", game.moves, { n: game.moves }) })
      : el("span", { class: "moves", text: t("move {n}", { n: game.version }) });
    const item = el("li", { class: "game-item", "data-game": game.id }, el("strong", { text: game.title }), " ", ...who, " · ", count, " ");
    if (game.status === "finished") {
      const won = (game.winners || []).map((s) => game.players[s].name).join(", ");
      item.append("· ", t("won by {names}", { names: won }), " · ",
        el("a", { href: `/games/${game.id}?replay=1`, class: "replay", text: t("watch the replay") }), " · ",
        el("a", { href: `/games/${game.id}`, text: t("final scoring") }));
      finished.append(item);
    } else if (game.status === "expired") { // an idle game without a clock (karnak.server.expiry)
      item.append("· ", t("ended unfinished: nobody moved"), " · ", el("a", { href: `/games/${game.id}`, text: t("the last position") }));
      finished.append(item);
    } else {
      item.append(el("a", { href: `/games/${game.id}`, text: t("watch") }));
      for (const seat of links[game.id] || []) {
        item.append(" · ", el("a", { href: seat.url, text: t("play {name}", { name: seat.name }) }));
      }
      running.append(item);
    }
  }
  if (!running.children.length) running.append(el("li", { class: "empty", text: t("none") }));
  if (!finished.children.length) finished.append(el("li", { class: "empty", text: t("none") }));
}

// ------------------------------------------------------------------ the game of the day
// The entry at the top links to /daily; here it says how today goes (nothing when the
// server does not answer: the link is enough).
async function showDaily() {
  try {
    const response = await fetch("/api/daily");
    if (!response.ok) return;
    const daily = await response.json();
    const attempt = daily.attempt;
    let status;
    if (attempt && attempt.finished) {
      status = nt("Your score today: {n} point", "Your score today: {n} points", attempt.score);
      $("daily-link").textContent = t("See how you did");
    } else if (attempt) {
      status = t("Your game of today is waiting for you.");
      $("daily-link").textContent = t("Resume today's game");
    } else if (daily.players) {
      status = nt("{n} player has finished it today.", "{n} players have finished it today.", daily.players);
    } else {
      status = t("Nobody has finished it yet today: be the first.");
    }
    $("daily-entry-status").textContent = status;
  } catch { /* the link stays */ }
}

async function start() {
  installTooltips();
  showDaily();
  games = await (await fetch("/api/games/available")).json();
  for (const game of games) {
    $("game").append(el("option", { value: game.name, text: t("{game} ({players})", { game: game.title, players: range(game) }) }));
  }
  $("game").addEventListener("change", () => { renderGameInfo(); renderPlayers(true); renderOptions(); });
  $("players").addEventListener("change", () => renderSeats());
  $("create-form").addEventListener("submit", createGame);
  wireTimeControl();
  wireMoreOptions();
  renderCatalogue();
  mountQuickMatch(games);
  mountCrowds();
  renderGameInfo();
  renderPlayers(true);
  renderOptions();
  refreshGames();
  setInterval(refreshGames, 5000);
  mountAccountBar();
  mountTables();
}

start();
