// The account page: log in, sign up, change the password, log out.
import { $ } from "./dom.js";
import { mountAccountBar, postJson, whoAmI } from "./session.js";
import { mountEmail } from "./account_mail.js";
import { t } from "./i18n.js";
import { languageMenu } from "./language.js";

const next = new URLSearchParams(location.search).get("next");

// Where to go once logged in: a page of this site only, never another one named in the link.
// `next` is resolved exactly as the browser will resolve it when it goes there (tabs and
// newlines dropped, a backslash read as a slash: "/\evil.example" and "/<tab>/evil.example"
// both lead to another site), and kept only when the result is on this origin. The whole
// resolved address is followed, not its path: a path may itself begin with "//" ("/.//x"
// resolves to the path "//x"), which the browser would read as another site.
export function sameSiteAddress(wanted, origin = location.origin) {
  if (!wanted) return "/";
  let url;
  try {
    url = new URL(wanted, origin);
  } catch {
    return "/";
  }
  return url.origin === origin ? url.href : "/";
}

function goOn() {
  location.href = sameSiteAddress(next);
}

function fields(form) {
  return Object.fromEntries(new FormData(form).entries());
}

async function submit(form, path, errorId, done) {
  const answer = await postJson(path, fields(form));
  if (answer.ok) { done(answer); return; }
  $(errorId).textContent = (answer.data && answer.data.error) || t("Refused ({status}).", { status: answer.status });
}

// The account's language (karnak.server.language): a menu with "Browser's language" first.
async function mountLanguageSetting() {
  const place = $("language-setting");
  if (!place) return;
  let setting = null;
  try {
    setting = (await (await fetch("/api/language")).json()).account;
  } catch (_error) {
    setting = null;
  }
  place.replaceChildren(languageMenu({ browser: true, current: setting }));
}

async function main() {
  const me = await whoAmI();
  mountAccountBar();
  $("logged-out").hidden = Boolean(me.account);
  $("logged-in").hidden = !me.account;
  if (me.account) $("me-name").textContent = me.account.name;
  if (me.account) mountLanguageSetting();
  mountEmail(me);
  $("login-form").addEventListener("submit", (e) => { e.preventDefault(); submit(e.target, "/api/account/login", "login-error", goOn); });
  $("signup-form").addEventListener("submit", (e) => { e.preventDefault(); submit(e.target, "/api/account/signup", "signup-error", goOn); });
  $("password-form").addEventListener("submit", (e) => {
    e.preventDefault();
    $("password-error").textContent = "";
    submit(e.target, "/api/account/password", "password-error", () => {
      e.target.reset();
      $("password-done").textContent = t("Your password is changed; your other sessions are logged out.");
    });
  });
  $("logout").addEventListener("click", async () => { await postJson("/api/account/logout"); location.href = "/"; });
}

main();
