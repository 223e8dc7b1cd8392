// A move that needs no click (karnak.server.forced_moves): while the server waits its short
// pause before playing a seat's only move, every view carries view.forced = {seat, action,
// at}; this shows "Passing for you in …" (or whose move it is) under the banner, counting
// down, and hides it once the move is played. The seat's own note has a button to click its
// moves itself from now on (PUT /api/games/{id}/forced-moves: its account's setting, or the
// guest's seat's choice).
import { t } from "/static/i18n.js";
import { writeHeaders } from "/static/session.js";

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

// Stop playing this seat's forced moves (the link's token, else the session's seat).
async function askMe(button) {
  const token = new URLSearchParams(location.search).get("token");
  const headers = token ? { "Content-Type": "application/json", "X-Karnak-Token": token } : writeHeaders();
  const game = decodeURIComponent(location.pathname.split("/")[2] || "");
  button.disabled = true;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(game)}/forced-moves`, {
      method: "PUT", headers, body: JSON.stringify({ on: false }),
    });
    button.textContent = response.ok ? t("You will choose every move yourself.") : t("That did not work; try again.");
    if (!response.ok) button.disabled = false;
  } catch (error) {
    button.disabled = false;
  }
}

export function showForced(view) {
  const slot = note();
  if (!slot) return;
  if (ticking) { clearInterval(ticking); ticking = null; }
  const forced = view && view.status === "running" ? view.forced : null;
  if (!forced) { slot.hidden = true; slot.textContent = ""; return; }
  const text = document.createElement("span");
  slot.replaceChildren(text);
  if (view.seat === forced.seat) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "forced-ask";
    button.textContent = t("Let me click it");
    button.title = t("From now on, wait for me to choose even my only move.");
    button.addEventListener("click", () => askMe(button));
    slot.append(" ", button);
  }
  const draw = () => {
    text.textContent = describe(view, forced);
    if (Date.now() / 1000 >= forced.at && ticking) { clearInterval(ticking); ticking = null; }
  };
  slot.hidden = false;
  draw();
  ticking = setInterval(draw, 250);
}
