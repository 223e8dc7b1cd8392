// The account page's e-mail section: the address, what to send, and the confirmation link.
// A confirmation link (/account#confirm=CODE) works logged in or not: the code is the proof,
// so it is posted as it is and removed from the address bar at once.
import { $ } from "./dom.js";
import { postJson } from "./session.js";
import { t } from "./i18n.js";

function showConfirmation(text) {
  const note = $("email-confirm-result");
  note.textContent = text;
  note.hidden = false;
}

// Whether the link confirmed an address (false: no link, or refused).
async function confirmFromLink() {
  const found = /^#confirm=([A-Za-z0-9_-]{1,64})$/.exec(location.hash);
  if (!found) return false;
  history.replaceState(null, "", location.pathname + location.search);
  const answer = await postJson("/api/account/email/confirm", { code: found[1] });
  showConfirmation(answer.ok
    ? t("Your e-mail address is confirmed: Karnak will write to it as you chose.")
    : (answer.data && answer.data.error) || t("The confirmation was refused ({status}).", { status: answer.status }));
  return answer.ok;
}

function describe(prefs) {
  if (!prefs.address) return t("No address: Karnak sends you no e-mail.");
  if (prefs.confirmed) return t("Confirmed: {address}.", { address: prefs.address });
  if (prefs.pending) return t("Waiting for confirmation: open the link sent to {address} (it works for 48 hours).", { address: prefs.address });
  return t("Not confirmed: {address} gets nothing until you confirm it; send the link again.", { address: prefs.address });
}

function show(prefs) {
  const form = $("email-form");
  $("email-off").hidden = prefs.enabled;
  form.hidden = !prefs.enabled;
  form.elements.address.value = prefs.address || "";
  for (const name of ["turn", "invitation", "daily"]) form.elements[name].checked = prefs[name];
  $("email-turn-hours").textContent = String(prefs.turn_hours);
  $("email-daily-hour").textContent = `${String(prefs.daily_hour).padStart(2, "0")}:00`;
  $("email-state").textContent = describe(prefs);
  $("email-resend").hidden = !prefs.address || prefs.confirmed;
}

async function save(extra = {}) {
  const form = $("email-form");
  $("email-error").textContent = "";
  const body = {
    address: form.elements.address.value.trim() || null,
    turn: form.elements.turn.checked,
    invitation: form.elements.invitation.checked,
    daily: form.elements.daily.checked,
    ...extra,
  };
  const answer = await postJson("/api/account/email", body);
  if (answer.ok) {
    show(answer.data);
    $("email-saved").textContent = extra.resend ? t("The confirmation link is sent again.") : t("Saved.");
    return;
  }
  $("email-saved").textContent = "";
  $("email-error").textContent = (answer.data && answer.data.error) || t("Refused ({status}).", { status: answer.status });
}

// The section as the server has it now (false: not logged in, or not answered).
async function refresh() {
  const response = await fetch("/api/account/email");
  if (!response.ok) return false;
  $("email").hidden = false;
  show(await response.json());
  return true;
}

// Called by the account page once it knows who is logged in.
export async function mountEmail(me) {
  // the link opened in this very page (only the hash changes): the section shows it too
  window.addEventListener("hashchange", async () => {
    if (await confirmFromLink() && me.account) await refresh();
  });
  await confirmFromLink();
  if (!me.account || !(await refresh())) return;
  $("email-form").addEventListener("submit", (event) => { event.preventDefault(); save(); });
  $("email-resend").addEventListener("click", () => save({ resend: true }));
}
