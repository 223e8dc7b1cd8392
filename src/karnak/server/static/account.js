// The account page: log in, sign up, change the password, log out.
import { $ } from "./dom.js";
import { mountAccountBar, postJson, whoAmI } from "./session.js";
import { mountEmail } from "./account_mail.js";

const next = new URLSearchParams(location.search).get("next");

function goOn() {
  // only a page of this site, never another one named in the link
  location.href = next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

function fields(form) {
  return Object.fromEntries(new FormData(form).entries());
}

async function submit(form, path, errorId, done) {
  const answer = await postJson(path, fields(form));
  if (answer.ok) { done(answer); return; }
  $(errorId).textContent = (answer.data && answer.data.error) || `Refused (${answer.status}).`;
}

async function main() {
  const me = await whoAmI();
  mountAccountBar();
  $("logged-out").hidden = Boolean(me.account);
  $("logged-in").hidden = !me.account;
  if (me.account) $("me-name").textContent = me.account.name;
  mountEmail(me);
  $("login-form").addEventListener("submit", (e) => { e.preventDefault(); submit(e.target, "/api/account/login", "login-error", goOn); });
  $("signup-form").addEventListener("submit", (e) => { e.preventDefault(); submit(e.target, "/api/account/signup", "signup-error", goOn); });
  $("password-form").addEventListener("submit", (e) => {
    e.preventDefault();
    $("password-error").textContent = "";
    submit(e.target, "/api/account/password", "password-error", () => {
      e.target.reset();
      $("password-done").textContent = "Your password is changed; your other sessions are logged out.";
    });
  });
  $("logout").addEventListener("click", async () => { await postJson("/api/account/logout"); location.href = "/"; });
}

main();
