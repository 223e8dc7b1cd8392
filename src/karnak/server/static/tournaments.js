// The tournaments (/tournaments): every tournament, open ones first, then running, then
// finished (and cancelled), each linking its own page (tournament.js); a logged-in reader
// creates one here: its name, game, format (what the game allows: Swiss or elimination for
// two, pools for tables of three or more), rounds, most players, the bots that fill the
// field and an optional start time. A refusal shows the server's words in a line of its
// own. Names go in as text, never as HTML.
import { $, el, installTooltips } from "./dom.js";
import { mountAccountBar, postJson, whoAmI } from "./session.js";
import { formatDate, formatNumber, pt, t } from "./i18n.js";

const ORDER = { open: 0, running: 1, finished: 2, cancelled: 3 };
let games = [];

function statusLabel(status) {
  if (status === "open") return pt("tournament", "open");
  if (status === "running") return pt("tournament", "running");
  if (status === "finished") return pt("tournament", "finished");
  return pt("tournament", "cancelled");
}

function formatLabel(format) {
  if (format === "swiss") return t("Swiss");
  if (format === "elimination") return t("Elimination");
  return t("Pools");
}

async function getJson(path) {
  try {
    const response = await fetch(path, { headers: { Accept: "application/json" } });
    let data = null;
    try { data = await response.json(); } catch { data = null; }
    return { ok: response.ok, status: response.status, data };
  } catch {
    return { ok: false, status: 0, data: null };
  }
}

function problem(answer, fallback) {
  if (answer.status === 0) return t("The server did not answer; try again in a moment.");
  const data = answer.data || {};
  return (typeof data.error === "string" && data.error) || fallback;
}

function renderList(found) {
  const sorted = [...found].sort((a, b) => (ORDER[a.status] ?? 4) - (ORDER[b.status] ?? 4));
  const head = el("tr", {}, el("th", { scope: "col", text: t("Tournament") }), el("th", { scope: "col", text: t("Game") }),
    el("th", { scope: "col", text: t("Format") }), el("th", { scope: "col", text: t("Status") }),
    el("th", { scope: "col", class: "number", text: t("Players") }), el("th", { scope: "col", text: t("Starts") }));
  const rows = sorted.map((tournament) => el("tr", { "data-status": tournament.status },
    el("th", { scope: "row" }, el("a", { href: `/tournaments/${encodeURIComponent(tournament.id)}`, text: tournament.name })),
    el("td", { text: tournament.title }),
    el("td", { text: formatLabel(tournament.format) }),
    el("td", { class: "status", text: statusLabel(tournament.status) }),
    el("td", { class: "number", text: t("{players} of {most}", { players: formatNumber(tournament.players.length), most: formatNumber(tournament.max_players) }) }),
    el("td", {}, tournament.starts_at
      ? el("time", { datetime: tournament.starts_at, text: formatDate(new Date(tournament.starts_at), { dateStyle: "medium", timeStyle: "short" }) })
      : t("when its creator starts it"))));
  const body = rows.length ? rows : [el("tr", {}, el("td", { colspan: "6", class: "empty", text: t("No tournament yet: create the first one.") }))];
  $("list").replaceChildren(el("caption", { class: "visually-hidden", text: t("Tournaments, open ones first") }),
    el("thead", {}, head), el("tbody", {}, ...body));
}

function chosenGame() {
  return games.find((g) => g.name === $("t-game").value) || games[0];
}

function refreshFormats() {
  const game = chosenGame();
  if (!game) return;
  const formats = game.max_players <= 2 ? ["swiss", "elimination"] : ["pools"];
  const keep = $("t-format").value;
  $("t-format").replaceChildren(...formats.map((f) => el("option", { value: f, text: formatLabel(f) })));
  if (formats.includes(keep)) $("t-format").value = keep;
  refreshRounds();
  const levels = (game.levels && game.levels[0] && game.levels[0].levels) || [];
  const keepBots = $("t-bots").value;
  $("t-bots").replaceChildren(el("option", { value: "", text: t("No bots") }),
    ...levels.map((level) => el("option", { value: level.name, text: level.label })));
  $("t-bots").value = [...$("t-bots").options].some((o) => o.value === keepBots) ? keepBots : "";
}

function refreshRounds() {
  $("rounds-line").hidden = $("t-format").value === "elimination"; // an elimination ends by itself
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const starts = $("t-starts").value;
  const body = {
    name: $("t-name").value.trim(),
    game: $("t-game").value,
    format: $("t-format").value,
    rounds: Number.parseInt($("t-rounds").value, 10) || 1,
    max_players: Number.parseInt($("t-players").value, 10) || 2,
    bots: $("t-bots").value || null,
    starts_at: starts ? new Date(starts).toISOString() : null,
  };
  $("create").disabled = true;
  let answer;
  try {
    answer = await postJson("/api/tournaments", body);
  } catch {
    answer = { ok: false, status: 0, data: null };
  }
  $("create").disabled = false;
  if (!answer.ok) {
    $("create-error").textContent = problem(answer, t("This tournament cannot be created."));
    return;
  }
  location.href = `/tournaments/${encodeURIComponent(answer.data.id)}`;
}

async function load() {
  installTooltips();
  mountAccountBar();
  const me = await whoAmI();
  if (me.account) {
    const found = await getJson("/api/games/available");
    if (found.ok) {
      games = found.data;
      $("t-game").replaceChildren(...games.map((g) => el("option", { value: g.name, text: g.title })));
      refreshFormats();
      $("t-game").addEventListener("change", refreshFormats);
      $("t-format").addEventListener("change", refreshRounds);
      $("create-form").addEventListener("submit", create);
      $("create-panel").hidden = false;
    } else {
      $("list-error").textContent = problem(found, t("The games cannot be listed."));
    }
  } else {
    $("guest-note").hidden = false;
  }
  const listed = await getJson("/api/tournaments?limit=100");
  if (!listed.ok) {
    $("list-error").textContent = problem(listed, t("The tournaments cannot be listed."));
    return;
  }
  renderList(listed.data.tournaments);
}

load();
