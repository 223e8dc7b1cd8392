// The game's chat, beside the log: its history (fetched when the page opens), the lines that
// arrive live over the game's socket (game.js hands them to receiveChat), and a line to send
// for a seat (spectators read only: see "Chat" in docs/players.md). The lines of players this
// reader blocked are left out of the history by the server, which names them (body.hidden),
// and dropped here when they arrive live.
//
// Every text goes in with textContent (el's "text"), never innerHTML: a line holding
// "<script>" or markup is shown as those characters and runs nothing.
import { $, el } from "./dom.js";
import { postJson, whoAmI, writeHeaders } from "./session.js";
import { t } from "/static/i18n.js";

const params = new URLSearchParams(location.search);
const token = params.get("token");
const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
const replayMode = params.has("replay");
const chatUrl = `/api/games/${encodeURIComponent(gameId)}/chat`;

const PAGE = 100; // the lines the history gives at once (the server's default)
const shown = new Map(); // line number -> its element, in the order of the numbers
let loaded = false;
let loading = null;
let waiting = []; // lines that arrived live before the history
let lastNumber = 0;
let hidden = new Set(); // the accounts this reader blocked: their lines are not shown

function headers() {
  // a seat named by its link's token; else the session (its writes carry the CSRF token)
  return token ? { "Content-Type": "application/json", "X-Karnak-Token": token } : writeHeaders();
}

function author(line) {
  return line.account && line.account !== line.name ? `${line.name} (${line.account})` : line.name;
}

function clockTime(iso) {
  const when = new Date(iso);
  return Number.isNaN(when.getTime()) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function lineElement(line) {
  return el("p", { class: "chat-line", "data-n": line.n },
    el("time", { class: "chat-time", datetime: line.at, text: clockTime(line.at) }), " ",
    el("span", { class: `chat-author chat-seat-${line.seat % 5}`, text: `${author(line)}:` }), " ",
    el("span", { class: "chat-text" }, ...linkified(line.text)), " ", reportButton(line));
}

// A line's text as text nodes, with its http(s) addresses as links (DOM nodes, never markup):
// a link opens in a new tab and tells the page it leads to nothing (noopener noreferrer) and
// search engines not to follow it (nofollow). Any other scheme (javascript:, data:, ftp:)
// stays plain text. A closing stop or bracket after an address belongs to the sentence.
const ADDRESS = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const TRAILING = /[.,;:!?)\]}'"]+$/;

export function linkified(text) {
  const parts = [];
  let from = 0;
  for (const match of text.matchAll(ADDRESS)) {
    const address = match[0].replace(TRAILING, "");
    let url = null;
    try { url = new URL(address); } catch (_error) { url = null; }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) continue;
    if (match.index > from) parts.push(document.createTextNode(text.slice(from, match.index)));
    const link = document.createElement("a");
    link.setAttribute("href", address);
    link.rel = "noopener noreferrer nofollow";
    link.target = "_blank";
    link.textContent = address;
    parts.push(link);
    from = match.index + address.length;
  }
  if (from < text.length) parts.push(document.createTextNode(text.slice(from)));
  return parts;
}

// "Report": a logged-in reader sends the line to the administrators, with a reason.
function reportButton(line) {
  const button = el("button", { type: "button", class: "chat-report", text: t("Report"), "data-tip": t("Tell the administrators about this line") });
  button.addEventListener("click", async () => {
    const me = await whoAmI();
    if (!me.account) { $("chat-error").textContent = t("Log in to report a line."); return; }
    const reason = prompt(t("Why report line {n} ({author})? The administrators read it.", { n: line.n, author: author(line) }));
    if (!reason || !reason.trim()) return;
    const answer = await postJson("/api/reports", { kind: "chat", game_id: gameId, line: line.n, reason: reason.slice(0, 500) });
    $("chat-error").textContent = answer.ok ? t("Reported: thank you. An administrator will look at it.")
      : (answer.data && answer.data.error) || t("The report was refused ({status}).", { status: answer.status });
  });
  return button;
}

// A line an administrator hid: gone from this page too.
function removeLine(n) {
  const item = shown.get(n);
  if (item) { item.remove(); shown.delete(n); }
}

function atBottom(box) {
  return !box || box.scrollHeight - box.scrollTop - box.clientHeight < 24;
}

function add(line, follow = atBottom($("chat-lines"))) {
  const box = $("chat-lines");
  if (!box || shown.has(line.n)) return;
  if (line.account && hidden.has(line.account)) { lastNumber = Math.max(lastNumber, line.n); return; }
  const item = lineElement(line);
  // in number order, whatever order the history and the socket brought them in
  const after = [...shown.keys()].find((n) => n > line.n);
  if (after === undefined) box.append(item);
  else box.insertBefore(item, shown.get(after));
  shown.set(line.n, item);
  const sorted = [...shown.entries()].sort((a, b) => a[0] - b[0]);
  shown.clear();
  for (const [n, node] of sorted) shown.set(n, node);
  lastNumber = Math.max(lastNumber, line.n);
  $("chat-empty").hidden = true;
  if (follow) box.scrollTop = box.scrollHeight;
}

// A line from the game's socket ({"event": "chat", "line": {...}}).
export function receiveChat(message) {
  if (message && Number.isInteger(message.hidden)) { removeLine(message.hidden); return; }
  const line = message && message.line;
  if (!line || !$("chat-panel")) return;
  if (!loaded) { waiting.push(line); return; }
  if (line.n > lastNumber + 1) load(); // lines were missed (the socket was away): ask again
  add(line);
}

// The oldest lines are asked for a page at a time, with a button above the lines: a chat of
// a long game is not all sent with the page.
function offerEarlier() {
  const oldest = shown.size ? Math.min(...shown.keys()) : 1;
  let button = $("chat-earlier");
  if (oldest <= 1) { if (button) button.remove(); return; }
  if (!button) {
    button = el("button", { type: "button", id: "chat-earlier", class: "chat-earlier", text: t("Earlier lines") });
    button.addEventListener("click", earlier);
    $("chat-lines").before(button);
  }
}

async function earlier() {
  const button = $("chat-earlier");
  const box = $("chat-lines");
  const oldest = Math.min(...shown.keys());
  button.disabled = true;
  try {
    const response = await fetch(`${chatUrl}?before=${oldest}&limit=${PAGE}`, { headers: token ? { "X-Karnak-Token": token } : {} });
    const body = await response.json();
    if (!response.ok) { $("chat-error").textContent = body.error || t("The earlier lines cannot be shown."); return; }
    const height = box.scrollHeight;
    for (const line of body.lines) add(line, false);
    box.scrollTop += box.scrollHeight - height; // the lines read before stay in place
  } catch (error) {
    $("chat-error").textContent = t("The earlier lines did not load ({error}).", { error: String(error) });
  } finally {
    button.disabled = false;
    offerEarlier();
  }
}

async function load() {
  if (loading) return loading;
  loading = (async () => {
    try {
      const response = await fetch(chatUrl, { headers: token ? { "X-Karnak-Token": token } : {} });
      const body = await response.json();
      if (!response.ok) { $("chat-error").textContent = body.error || t("The chat cannot be shown."); return; }
      hidden = new Set(body.hidden || []);
      for (const line of body.lines) add(line);
      loaded = true;
      for (const line of waiting) add(line);
      waiting = [];
      offerEarlier();
      const writes = body.can_write && !replayMode;
      $("chat-form").hidden = !writes;
      $("chat-note").textContent = writes ? t("Everyone who opens this game reads the chat, spectators too.")
        : replayMode ? t("What the players wrote.") : t("Only the players write here; you read along.");
    } catch (error) {
      $("chat-error").textContent = t("The chat did not load ({error}).", { error: String(error) });
    } finally {
      loading = null;
    }
  })();
  return loading;
}

async function send(event) {
  event.preventDefault();
  const input = $("chat-text");
  const button = $("chat-send");
  const text = input.value;
  if (!text.trim()) return;
  $("chat-error").textContent = "";
  button.disabled = true;
  try {
    const response = await fetch(chatUrl, { method: "POST", headers: headers(), body: JSON.stringify({ text }) });
    const body = await response.json();
    if (response.ok) {
      input.value = "";
      add(body.line);
    } else {
      $("chat-error").textContent = body.error || t("The line was refused ({status}).", { status: response.status });
    }
  } catch (error) {
    $("chat-error").textContent = t("The server did not answer ({error}); send the line again.", { error: String(error) });
  } finally {
    button.disabled = false;
    input.focus();
  }
}

function mount() {
  if (!$("chat-panel") || !gameId) return;
  $("chat-form").addEventListener("submit", send);
  // a tab back in view may have missed lines while its socket was away
  document.addEventListener("visibilitychange", () => { if (!document.hidden && loaded) load(); });
  load();
}

mount();
