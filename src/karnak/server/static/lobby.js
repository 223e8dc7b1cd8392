// The lobby: create a game (seats, bots, options, timer), share its links, list games.
import { $, el } from "./dom.js";

const BOT_LEVELS = [
  ["ismcts:1s", "Search bot, 1 s a move (strong)"],
  ["ismcts:0.25s", "Search bot, 0.25 s a move"],
  ["ismcts:2s", "Search bot, 2 s a move (strongest)"],
  ["heuristic", "Heuristic bot (instant)"],
  ["random", "Random bot"],
];
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

function renderPlayers(keepLevels = true) {
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
  renderSeats(keepLevels);
}

// Games for many players (Egyptia: up to 99) default to the quick bots: a search bot
// thinking a second for each of dozens of seats would make every round slow.
function quickBot(game) {
  if (game.max_players <= 5) return null;
  return ["heuristic", "random"].find((name) => game.bots.includes(name)) || null;
}

function levelOptions() {
  return BOT_LEVELS.filter(([spec]) => currentGame().bots.includes(spec.split(":")[0]))
    .map(([spec, label]) => el("option", { value: spec, text: label }));
}

function renderFill(count) {
  // with many seats, one control sets every seat after the first
  const box = $("seats");
  if (count < 4) return;
  const kind = el("select", { id: "fill-kind", "aria-label": "kind of every other seat" },
    el("option", { value: "human", text: "Person" }), ...levelOptions());
  const quick = quickBot(currentGame());
  if (quick) kind.value = quick;
  const apply = el("button", { type: "button", id: "fill-apply", text: "Apply" });
  apply.addEventListener("click", () => {
    for (const row of [...box.querySelectorAll(".seat-row")].slice(1)) {
      const human = kind.value === "human";
      row.querySelector(".kind").value = human ? "human" : "bot";
      row.querySelector(".level").hidden = human;
      if (!human) row.querySelector(".level").value = kind.value;
    }
  });
  box.prepend(el("div", { class: "fill-row" }, el("span", { text: "Seats 2 and on:" }), kind, apply));
}

// keepLevels: false when the game changed (its bots and their sensible levels differ)
function renderSeats(keepLevels = true) {
  const count = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat-row")];
  box.replaceChildren();
  for (let i = 0; i < count; i++) {
    const previous = old[i];
    const kind = previous ? previous.querySelector(".kind").value : (i === 0 ? "human" : "bot");
    const row = el("div", { class: "seat-row", "data-seat": i });
    const kindSelect = el("select", { class: "kind", "aria-label": `seat ${i + 1} kind` },
      el("option", { value: "human", text: "Person", selected: kind === "human" ? "" : null }),
      el("option", { value: "bot", text: "Bot", selected: kind === "bot" ? "" : null }));
    const name = el("input", { class: "name", placeholder: `Seat ${i + 1} name (optional)`, maxlength: 40,
      value: previous ? previous.querySelector(".name").value : "" });
    const level = el("select", { class: "level", "aria-label": `seat ${i + 1} bot level` }, ...levelOptions());
    const kept = previous && keepLevels ? previous.querySelector(".level").value : quickBot(currentGame());
    if (kept && [...level.options].some((o) => o.value === kept)) level.value = kept;
    level.hidden = kind !== "bot";
    kindSelect.addEventListener("change", () => { level.hidden = kindSelect.value !== "bot"; });
    row.append(el("span", { class: "seat-label", text: `Seat ${i + 1}` }), kindSelect, name, level);
    box.append(row);
  }
  renderFill(count);
}

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
    box.append(el("label", { class: "option", title: option.help }, input, ` ${option.name.replaceAll("_", " ")}: ${option.help}`));
  }
}

// Egyptia's Pharaoh cards: one of each letter, chosen here or drawn at random.
function cardChoices(cards, help) {
  const box = el("div", { class: "card-choices", "data-option-group": "cards", title: help },
    el("p", { class: "note", text: "Pharaoh cards (one of each letter; left at random, it is drawn):" }));
  for (const letter of ["A", "B", "C", "D", "E"]) {
    const select = el("select", { "data-card-letter": letter, "aria-label": `Pharaoh card ${letter}` },
      el("option", { value: "", text: `${letter}: drawn at random` }),
      ...cards.filter((c) => c.letter === letter).map((c) => el("option", { value: c.id, text: `${c.id}: ${c.text}` })));
    box.append(el("label", { class: "option" }, select));
  }
  return box;
}

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
  $("create").disabled = true;
  try {
    const response = await fetch("/api/games", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
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
    const copy = el("button", { type: "button", class: "copy", text: "Copy link" });
    copy.addEventListener("click", () => navigator.clipboard?.writeText(full));
    list.append(el("li", {}, el("strong", { text: seat.name }), " ",
      el("a", { href: seat.url, class: "seat-link", "data-seat": seat.seat, text: "Play this seat" }), " ", copy,
      el("input", { class: "link-text", readonly: "", value: full, "aria-label": `link for ${seat.name}` })));
  }
  list.append(el("li", {}, "Spectators: ", el("a", { href: created.spectator_url, text: "watch" })));
  $("created").hidden = false;
}

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
      item.append(`· won by ${won} `, el("a", { href: `/games/${game.id}?replay=1`, text: "replay" }));
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
  games = await (await fetch("/api/games/available")).json();
  for (const game of games) $("game").append(el("option", { value: game.name, text: game.title }));
  $("game").addEventListener("change", () => { renderPlayers(false); renderOptions(); });
  $("players").addEventListener("change", () => renderSeats());
  $("create-form").addEventListener("submit", createGame);
  renderPlayers();
  renderOptions();
  refreshGames();
  setInterval(refreshGames, 5000);
}

start();
