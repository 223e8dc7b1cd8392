// The result's headline, ranked as the ratings rank (karnak.server.timebank.views.standing):
// those who stayed by the final result, then those who left, last, their seat marked as
// played by a bot from then on. Every game's script shows it in place of its own "Winner".
//
//   import { resultHeadline } from "/static/result.js";
//   $("winners").textContent = resultHeadline(view);
import { formatNumber, language, nt, t } from "/static/i18n.js";

function listed(names) {
  try {
    return new Intl.ListFormat(language(), { style: "long", type: "conjunction" }).format(names);
  } catch (_error) {
    return names.join(", ");
  }
}

function points(score) {
  if (typeof score !== "number") return String(score ?? "");
  return nt("{n} point", "{n} points", score, { n: formatNumber(score) });
}

// A translated sentence (empty while the game runs).
export function resultHeadline(view) {
  if (view.ended && view.ended.reason) return t("The game ended unfinished: {reason}", { reason: view.ended.reason });
  const standing = view.standing || [];
  if (!view.result || !standing.length) return "";
  if (standing.length === 1) { // a solo game: its score, no "winner"
    const [solo] = standing;
    return solo.left ? t("The game is over: a bot finished it.") : t("Game over: {points}.", { points: points(solo.score) });
  }
  const stayed = standing.filter((s) => !s.left);
  const gone = standing.filter((s) => s.left);
  let headline;
  if (!stayed.length) headline = t("Everyone left the game: nobody wins.");
  else {
    const first = stayed.filter((s) => s.place === 1);
    const mine = first.some((s) => s.seat === view.seat);
    if (first.length === 1 && mine) headline = t("You win with {points}.", { points: points(first[0].score) });
    else if (first.length === 1) headline = t("{name} wins with {points}.", { name: first[0].name, points: points(first[0].score) });
    else headline = t("Shared victory: {names}, with {points}.", { names: listed(first.map((s) => s.name)), points: points(first[0].score) });
  }
  if (gone.length && stayed.length) {
    headline += " " + nt("{names} left the game and counts last (a bot played the seat).",
      "{names} left the game and count last (bots played their seats).", gone.length,
      { names: listed(gone.map((s) => s.name)) });
  }
  return headline;
}
