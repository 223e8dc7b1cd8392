// Under a finished game's final scoring: how the game changed each player's rating (or why
// it was not rated). game.js calls showRatingChange(view) whenever it shows a finished game;
// the changes are asked once per page, again a few times while the server has not rated the
// game yet (it does so a moment after the end). Names go in as text, never as HTML.
import { $, el } from "./dom.js";
import { pt, t } from "/static/i18n.js";

const WAITS_MS = [250, 500, 1000, 2000, 4000, 8000];
let asked = null; // the game whose changes were asked for

function signed(change) {
  return change > 0 ? `+${change.toFixed(1)}` : change < 0 ? `−${Math.abs(change).toFixed(1)}` : "±0.0";
}

function who(seat) {
  // a bot seat is named by its level ("Medium bot"); the bot behind it shows on hover
  if (seat.kind === "bot") return el("span", { class: "bot", text: seat.name, title: seat.bot });
  const shown = seat.account && seat.account !== seat.name ? `${seat.name} (${seat.account})` : seat.name;
  return el("a", { href: `/players/${encodeURIComponent(seat.account || seat.name)}`, text: shown });
}

function box() {
  let found = $("rating-change");
  if (!found) {
    found = el("div", { id: "rating-change", class: "rating-change", "aria-live": "polite" });
    const link = $("replay-link");
    if (link && link.parentElement) link.before(found);
    else $("result-panel").append(found);
  }
  return found;
}

function draw(found, view) {
  const board = el("a", { href: `/leaderboard/${encodeURIComponent(view.game)}`, text: t("{game} leaderboard", { game: view.title }) });
  if (found.status === "unrated") {
    box().replaceChildren(el("p", { class: "note", id: "rating-unrated" }, t("This game is not rated: {reason}.", { reason: found.reason }), " ", board));
    return;
  }
  if (found.status !== "rated") {
    box().replaceChildren(el("p", { class: "note", text: t("The ratings are being updated; reload the page in a moment.") }));
    return;
  }
  const RIGHT = "text-align:right;font-variant-numeric:tabular-nums";
  const head = el("tr", {}, el("th", { scope: "col", text: t("Player") }), el("th", { scope: "col", style: RIGHT, text: pt("rating", "Before") }),
    el("th", { scope: "col", style: RIGHT, text: pt("rating", "After") }), el("th", { scope: "col", style: RIGHT, text: pt("rating", "Change") }));
  const rows = found.seats.map((seat) => el("tr", { "data-seat": seat.seat },
    el("td", {}, who(seat), seat.left ? ` · ${t("left the game (counts last)")}` : ""),
    el("td", { style: RIGHT, text: seat.before.toFixed(1) }),
    el("td", { style: RIGHT, text: seat.after.toFixed(1) }),
    el("td", { class: seat.change > 0 ? "up" : seat.change < 0 ? "down" : null, text: signed(seat.change),
      style: `${RIGHT};font-weight:600${seat.change > 0 ? ";color:#1d6b1d" : seat.change < 0 ? ";color:#a11" : ""}` })));
  box().replaceChildren(el("h3", { id: "rating-change-heading", text: t("Rating changes") }),
    el("div", { class: "result-wrap" }, el("table", { class: "rating-table", "aria-labelledby": "rating-change-heading" },
      el("thead", {}, head), el("tbody", {}, ...rows))),
    el("p", { class: "note" }, t("Ratings are shown as mu − 3σ (they start at 0)."), " ", board));
}

export async function showRatingChange(view) {
  if (!view || view.status !== "finished" || asked === view.game_id) return;
  asked = view.game_id;
  for (let attempt = 0; ; attempt++) {
    let found;
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(view.game_id)}/ratings`);
      if (!response.ok) return;
      found = await response.json();
    } catch (error) {
      return;
    }
    if (found.status !== "pending" || attempt >= WAITS_MS.length) { draw(found, view); return; }
    await new Promise((resolve) => setTimeout(resolve, WAITS_MS[attempt]));
  }
}
