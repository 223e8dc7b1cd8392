// What a game page says of departures and rematches (karnak.server.departures, tables):
// - the banner of the person whose seat a bot took over (view.you_departed: why, when), in
//   <div id="seat-banner">; only that person's view carries it;
// - on a finished game's page, a rematch that someone asked for, live (the game's socket
//   carries {"event": "rematch", ...}), in <div id="rematch-slot">, on every seat's page.
import { el } from "/static/dom.js";
import { t } from "/static/i18n.js";

// The departure this tab remembers (clock.js, on leaving by the button): a guest who left
// reads the game as a spectator, whom the server cannot tell from anyone else.
function rememberedDeparture(view) {
  if (view.seat !== null && view.seat !== undefined) return null;
  try {
    return sessionStorage.getItem(`karnak-left:${view.game_id}`) ? { reason: "left" } : null;
  } catch (_) {
    return null;
  }
}

export function showDeparture(view) {
  const banner = document.getElementById("seat-banner");
  if (!banner) return;
  const gone = view.you_departed || rememberedDeparture(view);
  if (!gone) { banner.hidden = true; banner.replaceChildren(); return; }
  const text = gone.reason === "timeout"
    ? t("Your time ran out: a bot plays your seat from here. You can watch the rest.")
    : t("You left this game: a bot plays your seat from here. You can watch the rest.");
  if (banner.dataset.reason === gone.reason && !banner.hidden) return;
  banner.dataset.reason = gone.reason;
  banner.className = "seat-banner departed";
  banner.setAttribute("role", "status");
  banner.replaceChildren(el("strong", { text: t("A bot took your seat.") }), " ", text);
  banner.hidden = false;
}

let watching = null; // the game whose rematch offers this page follows

function showOffer(offer) {
  const slot = document.getElementById("rematch-slot");
  if (!slot || !offer || !offer.table) return;
  slot.replaceChildren(el("p", { class: "rematch-offer", role: "status" },
    t("{name} asks for a rematch.", { name: offer.by || t("A player") }), " ",
    el("a", { href: `/tables/${encodeURIComponent(offer.table)}`, class: "button", text: t("Join the rematch") })));
  slot.hidden = false;
}

export async function showRematchOffer(view) {
  if (view.status !== "finished" || watching === view.game_id || !document.getElementById("rematch-slot")) return;
  watching = view.game_id;
  const id = encodeURIComponent(view.game_id);
  try {
    const response = await fetch(`/api/games/${id}/rematch`);
    if (response.ok) showOffer((await response.json()).offer);
  } catch (_error) { /* the live offer still comes */ }
  const token = new URLSearchParams(location.search).get("token");
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  try {
    const socket = new WebSocket(`${scheme}://${location.host}/api/games/${id}/ws${query}`);
    socket.onmessage = (event) => {
      let message = null;
      try { message = JSON.parse(event.data); } catch (_error) { return; }
      if (message && message.event === "rematch") showOffer(message.offer);
    };
  } catch (_error) { /* no live offers: the page shows the one asked before it opened */ }
}

export function showDepartureAndRematch(view) {
  showDeparture(view);
  showRematchOffer(view);
}
