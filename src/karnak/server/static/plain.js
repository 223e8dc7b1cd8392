// The plain drawing, for a game without a script of its own: the seat's observation as data
// and its legal moves as buttons. Any registered game plays in the browser with it.
import { $, el } from "./dom.js";

export function render(view, ctx) {
  for (const id of ["hand-panel", "cartouche-panel", "builders-panel", "preview-panel", "sheet"]) {
    const node = $(id);
    if (node) node.hidden = true;
  }
  if (!view.page || !view.page.board_svg) {
    $("board").replaceChildren(el("pre", { class: "plain-view", text: JSON.stringify(view.observation, null, 2) }));
  }
  renderMoves(view, ctx);
  renderPlayers(view, ctx);
}

function renderMoves(view, ctx) {
  const box = $("moves");
  box.replaceChildren();
  const panel = $("moves-panel");
  if (view.seat === null || ctx.replayMode) { panel.hidden = true; return; }
  panel.hidden = false;
  if (view.can_undo) box.append(ctx.undoButton());
  if (!view.legal.length) {
    $("moves-note").textContent = view.status === "finished" ? "The game is over." : "Nothing to decide now: waiting for the others.";
    return;
  }
  $("moves-note").textContent = "Your moves:";
  for (const move of view.legal) {
    const button = el("button", { type: "button", class: "move", "data-move": move.text, text: move.text });
    button.addEventListener("click", () => ctx.play(move.text));
    box.append(button);
  }
}

function renderPlayers(view, ctx) {
  const list = $("players");
  if (!list) return;
  const scores = view.result ? view.result.scores : null;
  list.replaceChildren(...view.players.map((player, seat) => el("tr", {},
    el("td", {}, ctx.chip(seat, player.name)), el("td", { text: scores ? `${scores[seat]} points` : "" }))));
}
