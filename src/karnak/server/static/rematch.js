// The rematch button of a finished game's result panel (karnak.server.tables): any seat
// holder (by the link's token or the session) asks for the same table again, seats moved on
// by one; the answer is the table (the same one if someone asked before), opened in the
// lobby at /tables/<id>. A guest's ticket for it is kept as the lobby keeps it.
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { writeHeaders } from "./session.js";
import { keepTicket } from "./tables.js";

export function showRematch(view, token) {
  const panel = document.getElementById("result-panel");
  if (!panel || view.status !== "finished" || view.seat === null || document.getElementById("rematch")) return;
  const button = el("button", { type: "button", id: "rematch", text: t("Rematch"), "data-tip": t("The same table again, every seat moved on by one: the others are invited") });
  const error = el("span", { class: "error", role: "alert" });
  button.addEventListener("click", async () => {
    button.disabled = true;
    const headers = token ? { "Content-Type": "application/json", "X-Karnak-Token": token } : writeHeaders();
    const response = await fetch(`/api/games/${encodeURIComponent(view.game_id)}/rematch`, { method: "POST", headers });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) { error.textContent = data.error || t("refused ({status})", { status: response.status }); button.disabled = false; return; }
    keepTicket(data.table.id, data.ticket);
    location.assign(`/tables/${encodeURIComponent(data.table.id)}`);
  });
  panel.append(el("p", { class: "rematch-line" }, button, " ", error));
}
