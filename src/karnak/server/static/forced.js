// A move that needs no click (karnak.server.forced_moves): while the server waits its short
// pause before playing a seat's only move, every view carries view.forced = {seat, action,
// at}; this shows "Passing for you in …" (or whose move it is) under the banner, counting
// down, and hides it once the move is played.
import { t } from "/static/i18n.js";

let ticking = null;

function note() {
  let found = document.getElementById("forced-note");
  if (found) return found;
  const decision = document.getElementById("decision");
  if (!decision || !decision.parentNode) return null;
  found = document.createElement("p");
  found.id = "forced-note";
  found.className = "forced-note";
  found.setAttribute("role", "status");
  decision.after(found);
  return found;
}

function describe(view, forced) {
  const left = Math.max(0, Math.ceil(forced.at - Date.now() / 1000));
  if (view.seat === forced.seat) {
    return t("Passing for you in {seconds} s: it is your only move.", { seconds: left });
  }
  const player = (view.players || []).find((p) => p.seat === forced.seat);
  return t("{name} has only one move: played in {seconds} s.", {
    name: player ? player.name : String(forced.seat + 1), seconds: left,
  });
}

export function showForced(view) {
  const slot = note();
  if (!slot) return;
  if (ticking) { clearInterval(ticking); ticking = null; }
  const forced = view && view.status === "running" ? view.forced : null;
  if (!forced) { slot.hidden = true; slot.textContent = ""; return; }
  const draw = () => {
    slot.textContent = describe(view, forced);
    if (Date.now() / 1000 >= forced.at && ticking) { clearInterval(ticking); ticking = null; }
  };
  slot.hidden = false;
  draw();
  ticking = setInterval(draw, 250);
}
