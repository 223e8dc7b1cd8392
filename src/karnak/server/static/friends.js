// The friends panel: ask an account by name, answer the requests waiting for you, see your
// friends and remove one, withdraw a request of yours. A page includes it with
//   <section class="panel" id="friends-panel"></section>
//   <script type="module" src="/static/friends.js"></script>
// and it mounts itself there (or call mountFriends(section) yourself; mounting twice is
// harmless). It follows the account bar's live notifications ("karnak:notification", sent by
// session.js's mountAccountBar) and redraws when a friend request or acceptance arrives.
// listFriends() gives an invitation form the friends to offer first.
//
// Names go in with textContent (el's "text"), never innerHTML.
import { el } from "./dom.js";
import { postJson, whoAmI, writeHeaders } from "./session.js";
import { t } from "./i18n.js";

// The friends of the logged-in account, [{id, name, since}], or [] for nobody logged in.
export async function listFriends() {
  const response = await fetch("/api/friends");
  if (!response.ok) return [];
  return (await response.json()).friends;
}

function list(id, heading, entries, empty, buttons) {
  const items = entries.map((entry) =>
    el("li", { "data-account": entry.id },
      el("span", { class: "friend-name", text: entry.name }), ...buttons(entry)));
  return el("div", { id },
    el("h3", { text: heading }),
    items.length ? el("ul", { class: "friends-list" }, ...items) : el("p", { class: "empty", text: empty }));
}

// On another player's profile: where you stand with them, and the one thing to do about it
// (ask them, or accept their request). Nothing for a stranger or on your own profile.
export async function mountFriendButton(box, name) {
  const me = await whoAmI();
  if (!box || !me.account || me.account.name.toLowerCase() === name.toLowerCase()) return;
  const response = await fetch("/api/friends");
  if (!response.ok) return;
  const found = await response.json();
  const same = (entry) => entry.name.toLowerCase() === name.toLowerCase();
  const say = (text) => box.replaceChildren(el("span", { role: "status", text }));
  const ask = async (path, body, done) => {
    const answer = await postJson(path, body);
    if (answer.ok) say(done);
    else box.append(" ", el("span", { class: "error", role: "alert", text: (answer.data && answer.data.error) || t("Refused ({status}).", { status: answer.status }) }));
  };
  box.hidden = false;
  const incoming = found.incoming.find(same);
  if (found.friends.some(same)) say(t("{name} is your friend.", { name }));
  else if (found.outgoing.some(same)) say(t("Your request waits for {name}'s answer.", { name }));
  else if (incoming) {
    const accept = el("button", { type: "button", id: "friend-button", text: t("Accept {name}'s request", { name }) });
    accept.addEventListener("click", () => ask(`/api/friends/${incoming.id}/accept`, {}, t("You and {name} are friends.", { name })));
    box.replaceChildren(accept);
  } else {
    const request = el("button", { type: "button", id: "friend-button", text: t("Ask {name} to be friends", { name }) });
    request.addEventListener("click", () => ask("/api/friends/requests", { name }, t("Asked: {name} is told.", { name })));
    box.replaceChildren(request);
  }
}

export async function mountFriends(section = document.getElementById("friends-panel")) {
  if (!section || section.dataset.mounted) return;
  section.dataset.mounted = "yes";
  section.setAttribute("aria-labelledby", "friends-heading");
  const heading = el("h2", { id: "friends-heading", text: t("Friends") });
  const me = await whoAmI();
  if (!me.account) {
    const next = encodeURIComponent(location.pathname + location.search);
    section.replaceChildren(heading,
      el("p", { class: "note" }, el("a", { href: `/account?next=${next}`, text: t("Log in to add friends and see yours.") })));
    return;
  }
  const input = el("input", { id: "friend-name", name: "name", maxlength: "40", autocomplete: "off", required: "" });
  const form = el("form", { class: "friends-form", id: "friend-form" },
    el("label", { for: "friend-name", text: t("Ask a friend by account name") }), input,
    el("button", { type: "submit", id: "friend-ask", text: t("Ask") }));
  const status = el("p", { class: "note", id: "friends-status", role: "status" });
  const error = el("p", { class: "error", id: "friends-error", role: "alert" });
  const lists = el("div", { id: "friends-lists" });
  section.replaceChildren(heading, form, status, error, lists);

  const say = (text, failed = false) => {
    status.textContent = failed ? "" : text;
    error.textContent = failed ? text : "";
  };

  async function act(path, method, done) {
    let response;
    try {
      response = method === "DELETE"
        ? await fetch(path, { method, headers: writeHeaders() })
        : await fetch(path, { method, headers: writeHeaders(), body: "{}" });
    } catch (failure) {
      say(t("The server did not answer ({failure}).", { failure }), true);
      return;
    }
    let body = null;
    try { body = await response.json(); } catch (failure) { body = null; }
    if (response.ok) say(done);
    else say((body && body.error) || t("Refused ({status}).", { status: response.status }), true);
    await draw();
  }

  async function draw() {
    const response = await fetch("/api/friends");
    if (!response.ok) { say(t("Your friends cannot be shown now."), true); return; }
    const found = await response.json();
    const incoming = found.incoming_count > found.incoming.length
      ? t("Asking you (the newest {incoming} of {incoming_count})", { incoming: found.incoming.length, incoming_count: found.incoming_count }) : t("Asking you");
    lists.replaceChildren(
      list("friends-incoming", incoming, found.incoming, t("Nobody is waiting for your answer."), (entry) => [
        el("button", { type: "button", class: "friend-accept", "aria-label": t("Accept {name}", { name: entry.name }), text: t("Accept") }),
        el("button", { type: "button", class: "friend-decline", "aria-label": t("Decline {name}", { name: entry.name }), text: t("Decline") }),
      ]),
      list("friends-mine", t("Your friends"), found.friends, t("No friends yet: ask someone by name above."), (entry) => [
        el("button", { type: "button", class: "friend-remove", "aria-label": t("Remove {name}", { name: entry.name }), text: t("Remove") }),
      ]),
      list("friends-outgoing", t("Waiting for their answer"), found.outgoing, t("No request of yours is waiting."), (entry) => [
        el("button", { type: "button", class: "friend-withdraw", "aria-label": t("Withdraw your request to {name}", { name: entry.name }), text: t("Withdraw") }),
      ]));
  }

  lists.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    const item = button.closest("li");
    const id = item.dataset.account;
    const name = item.querySelector(".friend-name").textContent;
    if (button.classList.contains("friend-accept")) act(`/api/friends/${id}/accept`, "POST", t("{name} and you are friends.", { name }));
    else if (button.classList.contains("friend-decline")) act(`/api/friends/${id}/decline`, "POST", t("You declined {name}'s request.", { name }));
    else if (button.classList.contains("friend-withdraw")) act(`/api/friends/${id}`, "DELETE", t("Your request to {name} is withdrawn.", { name }));
    else if (button.classList.contains("friend-remove")) {
      if (button.dataset.sure) { act(`/api/friends/${id}`, "DELETE", t("{name} is no longer your friend.", { name })); return; }
      button.dataset.sure = "yes"; // a second click removes: one slip of the mouse does not
      button.textContent = t("Click again to remove");
    }
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    const answer = await postJson("/api/friends/requests", { name });
    if (!answer.ok) {
      say((answer.data && answer.data.error) || t("Refused ({status}).", { status: answer.status }), true);
      return;
    }
    const who = answer.data.account.name;
    input.value = "";
    if (answer.data.state === "friends") say(answer.data.duplicate ? t("{who} is your friend already.", { who }) : t("{who} had asked you too: you are friends.", { who }));
    else say(answer.data.duplicate ? t("You have asked {who} already; the answer is theirs.", { who }) : t("{who} is asked; you will hear when they accept.", { who }));
    await draw();
  });

  document.addEventListener("karnak:notification", (event) => {
    const kind = event.detail && event.detail.kind;
    if (kind === "friend_request" || kind === "friend_accepted") draw();
  });
  await draw();
}

mountFriends();
