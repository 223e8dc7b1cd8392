// The tournaments (/tournaments): every tournament, open ones first, then running, then
// finished (and cancelled), each linking its own page (tournament.js); a logged-in reader
// creates one here: its name, game, format (what the game allows: Swiss, single or double
// elimination for a game two may play, pools for one played at tables of three to five), rounds, most players, the bots
// that fill the field, the pace of its games (no clock, a turn timer, or a real-time or
// turn-based speed of GET /api/speeds), whether it is by invitation, and an optional start
// time. A refusal shows the server's words in a line of its own. Names go in as text, never
// as HTML.
import { $, el, installTooltips } from "./dom.js";
import { mountAccountBar, postJson, whoAmI } from "./session.js";
import { formatDate, formatNumber, pt, t } from "./i18n.js";

const ORDER = { open: 0, running: 1, finished: 2, cancelled: 3 };
const KNOCKOUTS = ["elimination", "double"]; // they end by themselves: no rounds to choose
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
  if (format === "double") return t("Double elimination");
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
  const invitationMark = t("(by invitation)");
  const sorted = [...found].sort((a, b) => (ORDER[a.status] ?? 4) - (ORDER[b.status] ?? 4));
  const head = el("tr", {}, el("th", { scope: "col", text: t("Tournament") }), el("th", { scope: "col", text: t("Game") }),
    el("th", { scope: "col", text: t("Format") }), el("th", { scope: "col", text: t("Status") }),
    el("th", { scope: "col", class: "number", text: t("Players") }), el("th", { scope: "col", text: t("Starts") }));
  const rows = sorted.map((tournament) => el("tr", { "data-status": tournament.status },
    el("th", { scope: "row" }, el("a", { href: `/tournaments/${encodeURIComponent(tournament.id)}`, text: tournament.name }),
      ...(tournament.invite_only ? [" ", el("small", { class: "invite-mark", text: invitationMark })] : [])),
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
  // as the server allows them: the two-player formats for a game two may play, pools for
  // one played at tables of three to five
  const two = game.min_players <= 2 && game.max_players >= 2;
  const pools = Math.max(3, game.min_players) <= Math.min(5, game.max_players);
  const formats = [...(two ? ["swiss", "elimination", "double"] : []), ...(pools ? ["pools"] : [])];
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
  const knockout = KNOCKOUTS.includes($("t-format").value);
  $("rounds-line").hidden = knockout;
  $("t-rounds").disabled = knockout; // a hidden field is not checked by the browser either
}

// The speeds of GET /api/speeds, grouped by their kind (real-time, turn-based), after "no
// clock" and "turn timer"; without them (the server did not answer) those two stay.
function fillSpeeds(listed) {
  const groups = (listed.kinds || []).map((kind) => {
    const speeds = (listed.speeds || []).filter((speed) => speed.kind === kind.name);
    return el("optgroup", { label: kind.label, "data-kind": kind.name },
      ...speeds.map((speed) => el("option", { value: `speed:${speed.name}`, text: speed.label })));
  });
  $("t-pace").append(...groups.filter((group) => group.children.length));
}

function refreshPace() {
  const timer = $("t-pace").value === "timer";
  $("timer-line").hidden = !timer;
  $("t-timer").disabled = !timer;
}

function paceOf() {
  const pace = $("t-pace").value;
  if (pace === "timer") return { turn_timer: Number($("t-timer").value), time_control: null };
  if (pace.startsWith("speed:")) return { turn_timer: null, time_control: { speed: pace.slice("speed:".length) } };
  return { turn_timer: null, time_control: null };
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
    ...paceOf(),
    invite_only: $("t-invite").checked,
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
    const [found, speeds] = await Promise.all([getJson("/api/games/available"), getJson("/api/speeds")]);
    if (found.ok) {
      games = found.data;
      if (speeds.ok && speeds.data) fillSpeeds(speeds.data);
      refreshPace();
      $("t-pace").addEventListener("change", refreshPace);
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
