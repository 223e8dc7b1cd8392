// The "forgot password" page: without a token, ask for a link by name or address; with the
// token of the e-mail's link (after "#", which the browser never sends to a server), choose
// the new password twice. The token is taken off the address bar at once, so it stays in
// no history, bookmark or screen share.
import { $ } from "./dom.js";
import { postJson } from "./session.js";
import { t } from "./i18n.js";

function takeToken() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  const fromQuery = new URLSearchParams(location.search).get("token"); // an older link's form
  const token = fromHash || fromQuery;
  if (token) history.replaceState(null, "", "/reset");
  return token;
}

function refused(answer) {
  return (answer.data && answer.data.error) || t("Refused ({status}).", { status: answer.status });
}

function ask() {
  $("ask-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    $("ask-error").textContent = "";
    $("ask-done").textContent = "";
    const answer = await postJson("/api/account/password-reset", { account: e.target.account.value });
    if (!answer.ok) { $("ask-error").textContent = refused(answer); return; }
    $("ask-done").textContent = `${answer.data.message[0].toUpperCase()}${answer.data.message.slice(1)}.`;
  });
}

function choose(token) {
  $("choose").hidden = false;
  $("choose-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = e.target;
    $("choose-error").textContent = "";
    if (form.password.value !== form.again.value) {
      $("choose-error").textContent = t("The two passwords differ: type the same one twice.");
      return;
    }
    const answer = await postJson("/api/account/password-reset/confirm", { token, password: form.password.value });
    if (!answer.ok) {
      $("choose-error").textContent = refused(answer);
      if (answer.status === 400) { $("ask").hidden = false; } // the link is dead: offer a new one
      return;
    }
    form.reset();
    $("choose").hidden = true;
    $("done").hidden = false;
  });
}

const token = takeToken();
ask(); // shown at once without a token, and when the link turns out not to work
if (token) choose(token);
else $("ask").hidden = false;
