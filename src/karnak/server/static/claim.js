// The game page's seat tools (karnak.server.tables), hooked by one line in game.js after each
// render: "Make this seat yours" when a logged-in person opens a seat by its link and no
// account holds it (POST /api/games/<id>/claim?token=...: the session then opens the seat
// from "my games", the link keeps working), and the rematch button of a finished game
// (rematch.js). The view says whether a seat is held (players[i].held), a public fact.
import { el } from "./dom.js";
import { t } from "/static/i18n.js";
import { whoAmI, writeHeaders } from "./session.js";
import { showRematch } from "./rematch.js";

let claimed = false;

export async function seatTools(view, token, replayMode) {
  if (replayMode) return;
  showRematch(view, token);
  const bar = document.getElementById("claim-bar");
  const seat = view.seat;
  const wanted = token && seat !== null && !view.players[seat].held && view.players[seat].kind !== "bot" && !claimed;
  if (!wanted) { if (bar && !claimed) bar.remove(); return; }
  const me = await whoAmI();
  if (!me.account || document.getElementById("claim-bar")) return;
  const button = el("button", { type: "button", id: "claim-seat", class: "claim-button", text: t("Make this seat yours") });
  const said = el("span", { class: "claim-text", text: t("You opened {seat}'s seat by its link: make it {account}'s, to find it in your games without the link.", { seat: view.players[seat].name, account: me.account.name }) });
  const error = el("span", { class: "error", role: "alert" });
  const box = el("div", { id: "claim-bar", class: "claim-bar", role: "region", "aria-label": t("This seat") }, said, button, error);
  button.addEventListener("click", async () => {
    button.disabled = true;
    const gameId = view.game_id;
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/claim?token=${encodeURIComponent(token)}`, { method: "POST", headers: writeHeaders() });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) { error.textContent = data.error || t("refused ({status})", { status: response.status }); button.disabled = false; return; }
    claimed = true;
    box.classList.add("claimed");
    box.replaceChildren(el("span", { class: "claim-text", text: t("This seat is {account}'s now: it is listed in your games.", { account: data.account }) }), el("a", { href: "/me", text: t("Open your games") }));
  });
  document.getElementById("banner").after(box);
}
