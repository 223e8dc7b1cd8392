// The lobby's first sight: each game the server plays as a card, with a picture of its own
// board (drawn by the server from a fresh game: karnak.server.lobby_cards), its players and
// length, and "Play now": one click starts a game against bots at the default level
// (Medium) and opens the player's seat, whether logged in or a guest.
import { el } from "/static/dom.js";
import { t, nt } from "/static/i18n.js";
import { whoAmI, writeHeaders } from "/static/session.js";

export function playerRange(game) {
  if (game.min_players === game.max_players) return nt("{n} player", "{n} players", game.min_players, { n: game.min_players });
  return t("{low}-{high} players", { low: game.min_players, high: game.max_players });
}

// Where a new game's creator plays: a logged-in creator's seat is the account's (the game's
// address opens it); a guest's is its secret link (kept by lobby.js among the links).
export function ownSeatUrl(created, mine) {
  if (mine) return `/games/${encodeURIComponent(created.id)}`;
  const own = created.seats.find((seat) => seat.url);
  return own ? own.url : created.spectator_url;
}

async function playNow(game, button, error, remember) {
  error.textContent = "";
  button.disabled = true;
  try {
    const me = await whoAmI();
    const mine = Boolean(me && me.account);
    const bots = Math.max(0, (game.play_now ? game.play_now.seats : game.min_players) - 1);
    const level = (game.play_now && game.play_now.level) || "medium";
    const seats = [{ kind: "human", mine }, ...Array.from({ length: bots }, () => ({ kind: "bot", bot: level }))];
    const response = await fetch("/api/games", {
      method: "POST", headers: writeHeaders(), body: JSON.stringify({ game: game.name, seats }),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      error.textContent = answer.error || t("The game could not be created ({status}).", { status: response.status });
      button.disabled = false;
      return;
    }
    if (remember) remember(answer);
    location.assign(ownSeatUrl(answer, mine));
  } catch (failure) {
    error.textContent = t("The server did not answer: {error}", { error: String(failure) });
    button.disabled = false;
  }
}

function card(game, remember) {
  const error = $error();
  const play = el("button", {
    type: "button", class: "play-now", "data-game": game.name,
    "aria-label": t("Play {game} now against Medium bots", { game: game.title }), text: t("Play now"),
  });
  play.addEventListener("click", () => playNow(game, play, error, remember));
  const bots = Math.max(0, (game.play_now ? game.play_now.seats : game.min_players) - 1);
  const picture = game.picture
    ? el("img", { class: "card-picture", src: game.picture, alt: t("The board of {game}", { game: game.title }), loading: "lazy", width: "320", height: "240" })
    : el("div", { class: "card-picture empty", "aria-hidden": "true" });
  return el("li", { class: "game-card catalogue-item", "data-game": game.name },
    picture,
    el("div", { class: "card-body" },
      el("h3", { class: "card-title", text: game.title }),
      el("p", { class: "facts", text: `${playerRange(game)} · ${game.playing_time}` }),
      el("p", { class: "card-description", text: game.description }),
      el("div", { class: "card-actions" },
        play, " ",
        el("span", { class: "note", text: nt("you and {n} Medium bot", "you and {n} Medium bots", bots, { n: bots }) }), " ",
        el("a", { href: `/leaderboard/${encodeURIComponent(game.name)}`, class: "leaderboard-link",
          "aria-label": t("{game} leaderboard", { game: game.title }), text: t("leaderboard") })),
      error));
}

function $error() {
  return el("p", { class: "error card-error", role: "alert" });
}

/** Draws the games' cards into `list`; `remember(created)` keeps a guest's seat link. */
export function renderCards(list, games, remember) {
  list.replaceChildren(...games.map((game) => card(game, remember)));
}
