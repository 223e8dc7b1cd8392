// The lobby: the games (what each is, for how many, how long), a new game's seats (people,
// or bots by level), options and timer, its links, and the running and finished games.
import { $, el, installTooltips } from "./dom.js";
import { mountAccountBar, whoAmI, writeHeaders } from "./session.js";
import { createTable, mountTables } from "./tables.js";

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

function range(game) {
  if (game.min_players === game.max_players) return `${game.min_players} players`;
  return `${game.min_players}-${game.max_players} players`;
}

// ------------------------------------------------------------------ the games
function renderCatalogue() {
  $("catalogue").replaceChildren(...games.map((game) => el("li", { class: "catalogue-item" },
    el("strong", { text: game.title }), " ",
    el("span", { class: "facts", text: `${range(game)} · ${game.playing_time}` }), " ",
    el("a", { href: `/leaderboard/${encodeURIComponent(game.name)}`, class: "leaderboard-link", "aria-label": `${game.title} leaderboard`, text: "leaderboard" }),
    el("br"), el("span", { text: game.description }))));
}

function renderGameInfo() {
  const game = currentGame();
  $("game-info").textContent = `${range(game)} · ${game.playing_time}. ${game.description}`;
}

// ------------------------------------------------------------------ bot levels
// The server sends each game's levels (easy to expert) for every number of bot seats: a big
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
// it stands for at this table. A level the person chose stays chosen; the others follow
// the default.
function fillLevels(select, levels, fallback) {
  const wanted = select.dataset.chosen ? select.dataset.level : fallback;
  select.replaceChildren(...levels.map((level) =>
    el("option", { value: level.spec, "data-level": level.name, text: level.label, selected: level.name === wanted ? "" : null })));
  select.dataset.level = wanted;
}

function refreshLevels() {
  const current = band(Math.max(1, botCount()));
  for (const select of document.querySelectorAll(".seat-row .level")) fillLevels(select, current.levels, current.default);
  const fill = $("fill-kind");
  if (fill) {
    const keep = fill.value;
    fill.replaceChildren(el("option", { value: "human", text: "Person" }),
      ...current.levels.map((level) => el("option", { value: level.name, text: `Bot, ${level.label}` })));
    fill.value = keep && [...fill.options].some((o) => o.value === keep) ? keep : current.default;
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
    const label = n === 1 ? "1 player (solo)" : `${n} players`;
    select.append(el("option", { value: n, text: label, selected: n === keep ? "" : null }));
  }
  renderSeats(fresh);
}

function renderFill(count) {
  // with many seats, one control sets every seat after the first
  if (count < 4) return;
  const kind = el("select", { id: "fill-kind", "aria-label": "Every seat after the first" });
  const apply = el("button", { type: "button", id: "fill-apply", text: "Apply" });
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
  $("seats").prepend(el("div", { class: "fill-row" }, el("span", { text: "Seats 2 and on:" }), kind, apply));
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
    const kindSelect = el("select", { class: "kind", "aria-label": `Seat ${i + 1}: person or bot` },
      el("option", { value: "human", text: "Person", selected: kind === "human" ? "" : null }),
      el("option", { value: "bot", text: "Bot", selected: kind === "bot" ? "" : null }),
      el("option", { value: "open", text: "Open seat (anyone joins)", selected: kind === "open" ? "" : null }));
    const name = el("input", { class: "name", placeholder: `Seat ${i + 1} name (optional)`, maxlength: 40,
      "aria-label": `Seat ${i + 1} name`, value: previous ? previous.querySelector(".name").value : "" });
    const level = el("select", { class: "level", "aria-label": `Seat ${i + 1} bot level` });
    if (previous && previous.querySelector(".level").dataset.chosen) {
      level.dataset.chosen = "1";
      level.dataset.level = previous.querySelector(".level").dataset.level;
    }
    level.hidden = kind !== "bot";
    kindSelect.addEventListener("change", () => { level.hidden = kindSelect.value !== "bot"; refreshLevels(); });
    level.addEventListener("change", () => chooseLevel(level));
    row.append(el("span", { class: "seat-label", text: `Seat ${i + 1}` }), kindSelect, name, level);
    box.append(row);
  }
  renderFill(count);
  refreshLevels();
}

// ------------------------------------------------------------------ options
function renderOptions() {
  const box = $("options");
  box.replaceChildren(el("legend", { text: "Options" }));
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
    el("p", { class: "note", text: "Pharaoh cards (one of each letter; left at random, it is drawn):" }));
  for (const letter of ["A", "B", "C", "D", "E"]) {
    const select = el("select", { "data-card-letter": letter, "aria-label": `Pharaoh card ${letter}` },
      el("option", { value: "", text: `${letter}: drawn at random` }),
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
    if (first && (await whoAmI()).account) first.mine = true;
    const response = await fetch("/api/games", {
      method: "POST", headers: writeHeaders(), body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) {
      $("create-error").textContent = answer.error || JSON.stringify(answer.detail || answer);
      return;
    }
    rememberLinks(answer);
    showLinks(answer);
    refreshGames();
  } catch (error) {
    $("create-error").textContent = `The server did not answer: ${error}`;
  } finally {
    $("create").disabled = false;
  }
}

function showLinks(created) {
  const list = $("links");
  list.replaceChildren();
  for (const seat of created.seats) {
    if (!seat.url) {
      list.append(el("li", {}, el("strong", { text: seat.name }), ` plays as bot (${seat.bot})`));
      continue;
    }
    const full = new URL(seat.url, location.origin).href;
    const copy = el("button", { type: "button", class: "copy", text: "Copy link", "aria-label": `Copy the link for ${seat.name}` });
    copy.addEventListener("click", () => navigator.clipboard?.writeText(full));
    list.append(el("li", {}, el("strong", { text: seat.name }), " ",
      el("a", { href: seat.url, class: "seat-link", "data-seat": seat.seat, text: "Play this seat" }), " ", copy,
      el("input", { class: "link-text", readonly: "", value: full, "aria-label": `Link for ${seat.name}` })));
  }
  list.append(el("li", {}, "Spectators: ", el("a", { href: created.spectator_url, text: "watch" })));
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
    const names = game.players.map((p) => p.kind === "bot" ? `${p.name} (bot)` : p.name);
    // a table of 99 builders is named by its first few
    const who = names.length > 6 ? `${names.slice(0, 4).join(", ")} and ${names.length - 4} more` : names.join(", ");
    const item = el("li", { class: "game-item" }, el("strong", { text: game.title }), ` ${who} · move ${game.version} `);
    if (game.status === "finished") {
      const won = (game.winners || []).map((s) => game.players[s].name).join(" and ");
      item.append(`· won by ${won} · `,
        el("a", { href: `/games/${game.id}?replay=1`, class: "replay", text: "watch the replay" }), " · ",
        el("a", { href: `/games/${game.id}`, text: "final scoring" }));
      finished.append(item);
    } else if (game.status === "expired") { // an idle game without a clock (karnak.server.expiry)
      item.append("· ended unfinished: nobody moved · ", el("a", { href: `/games/${game.id}`, text: "the last position" }));
      finished.append(item);
    } else {
      item.append(el("a", { href: `/games/${game.id}`, text: "watch" }));
      for (const seat of links[game.id] || []) {
        item.append(" · ", el("a", { href: seat.url, text: `play ${seat.name}` }));
      }
      running.append(item);
    }
  }
  if (!running.children.length) running.append(el("li", { class: "empty", text: "none" }));
  if (!finished.children.length) finished.append(el("li", { class: "empty", text: "none" }));
}

async function start() {
  installTooltips();
  games = await (await fetch("/api/games/available")).json();
  for (const game of games) {
    $("game").append(el("option", { value: game.name, text: `${game.title} (${range(game)})` }));
  }
  $("game").addEventListener("change", () => { renderGameInfo(); renderPlayers(true); renderOptions(); });
  $("players").addEventListener("change", () => renderSeats());
  $("create-form").addEventListener("submit", createGame);
  wireTimeControl();
  renderCatalogue();
  renderGameInfo();
  renderPlayers(true);
  renderOptions();
  refreshGames();
  setInterval(refreshGames, 5000);
  mountAccountBar();
  mountTables();
}

start();
