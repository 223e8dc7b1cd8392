// The logged-in account on every page: who it is, the CSRF header its writes carry, and a bar
// in the page's header (log in / the name, the notifications with their unread count, live).
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { mountLanguageMenu } from "./language.js";

let current = null; // {account, csrf} once asked

// The CSRF token, read from its cookie (the session cookie itself is out of the page's reach).
export function csrfToken() {
  const found = document.cookie.split("; ").find((c) => c.startsWith("karnak_csrf="));
  return found ? decodeURIComponent(found.slice("karnak_csrf=".length)) : null;
}

// Headers for a JSON write: the CSRF token whenever the browser holds a session.
export function writeHeaders(extra = {}) {
  const h = { "Content-Type": "application/json", ...extra };
  const csrf = csrfToken();
  if (csrf) h["X-CSRF-Token"] = csrf;
  return h;
}

export async function whoAmI() {
  if (current) return current;
  try {
    current = await (await fetch("/api/account")).json();
  } catch (error) {
    current = { account: null, csrf: null };
  }
  return current;
}

// Any JSON request as {ok, status, data}: a GET plainly, a write with writeHeaders() and an
// optional body; a server that did not answer is status 0 (the caller says so to the person).
export async function callJson(method, path, body) {
  const init = method === "GET"
    ? { headers: { Accept: "application/json" } }
    : { method, headers: writeHeaders() };
  if (body !== undefined) init.body = JSON.stringify(body);
  try {
    const response = await fetch(path, init);
    let data = null;
    try { data = await response.json(); } catch { data = null; }
    return { ok: response.ok, status: response.status, data };
  } catch {
    return { ok: false, status: 0, data: null };
  }
}

// What went wrong with an answer of callJson, for the person: the server's own words when it
// gave some.
export function problemText(answer) {
  if (answer.status === 0) return t("The server did not answer; try again in a moment.");
  const data = answer.data || {};
  if (typeof data.error === "string" && data.error) return data.error;
  return t("refused ({status})", { status: answer.status });
}

export async function postJson(path, body = {}) {
  const response = await fetch(path, { method: "POST", headers: writeHeaders(), body: JSON.stringify(body) });
  let data = null;
  try { data = await response.json(); } catch (error) { data = null; }
  return { ok: response.ok, status: response.status, data };
}

// The bar at the right of the page's header (an element with id "account-bar"): the account,
// the notifications and the language menu (language.js), for guests too.
export async function mountAccountBar() {
  const bar = document.getElementById("account-bar");
  if (!bar) return;
  const me = await whoAmI();
  if (!me.account) {
    bar.replaceChildren(el("a", { href: `/account?next=${encodeURIComponent(location.pathname + location.search)}`, class: "account-link", text: t("Log in or sign up") }));
    mountLanguageMenu(bar);
    return;
  }
  const count = el("span", { class: "unread", id: "unread-count", "aria-live": "polite" });
  const bell = el("a", { href: "/me", class: "notifications-link", "data-tip": t("Your notifications and games") }, t("Notifications"), " ", count);
  bar.replaceChildren(el("a", { href: "/me", class: "account-name", text: me.account.name }), " ", bell);
  mountLanguageMenu(bar);
  const show = (unread) => { count.textContent = unread ? `(${unread})` : ""; };
  try {
    const listed = await (await fetch("/api/notifications")).json();
    show(listed.unread);
    let unread = listed.unread;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // A server that restarts, or hands its sockets to another process, closes them (1012):
    // the bell reconnects, with the unread count read again, after a growing pause.
    let retry = 500;
    const connect = () => {
      const socket = new WebSocket(`${scheme}://${location.host}/api/account/ws`);
      socket.onopen = () => { retry = 500; };
      socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.event !== "notification") return;
        unread += 1;
        show(unread);
        document.dispatchEvent(new CustomEvent("karnak:notification", { detail: message.notification }));
      };
      socket.onclose = (event) => {
        if (event.code >= 4400 && event.code < 4500) return; // logged out: nothing to hear
        setTimeout(async () => {
          try {
            const again = await (await fetch("/api/notifications")).json();
            unread = again.unread;
            show(unread);
          } catch (error) { /* the socket's own retry tells when the server is back */ }
          connect();
        }, retry);
        retry = Math.min(retry * 2, 10000);
      };
    };
    connect();
  } catch (error) {
    show(0);
  }
}
