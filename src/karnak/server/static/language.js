// The language menu: a small <select> of the site's languages, usable by guests and accounts.
//
//   import { languageMenu, mountLanguageMenu } from "/static/language.js";
//   header.append(languageMenu());          // or mountLanguageMenu(container)
//
// Choosing a language records it (PUT /api/language: the account's setting when logged in,
// and a cookie in every case; karnak.server.language) and reloads the page in it. The choice
// "Browser" lets the browser's Accept-Language decide again.
import { t, language } from "./i18n.js";
import { writeHeaders } from "./session.js";

// Each language named in itself (never translated: a reader looks for their own).
export const LANGUAGES = [
  ["en", "English"],
  ["de", "Deutsch"],
  ["fr", "Français"],
];

// Records ``code`` (null: the browser decides) and resolves to the server's answer.
export async function chooseLanguage(code) {
  const response = await fetch("/api/language", {
    method: "PUT",
    headers: writeHeaders(),
    body: JSON.stringify({ language: code }),
  });
  if (!response.ok) throw new Error(`language refused (${response.status})`);
  return response.json();
}

// The page again, in the language just chosen (a ?lang= in the address would override it).
export function reloadInLanguage() {
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  location.replace(url.href);
}

// A labelled <select>; ``options.browser`` adds the "browser's language" choice (the account
// page, where the setting may be cleared); ``options.current`` is the selected value.
export function languageMenu(options = {}) {
  const label = document.createElement("label");
  label.className = "language-menu";
  const select = document.createElement("select");
  select.setAttribute("aria-label", t("Language"));
  select.name = "language";
  if (options.browser) {
    const auto = document.createElement("option");
    auto.value = "";
    auto.textContent = t("Browser's language");
    select.append(auto);
  }
  for (const [code, name] of LANGUAGES) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    select.append(option);
  }
  const current = options.current !== undefined ? options.current : language();
  select.value = current === null ? "" : current;
  if (select.value !== (current === null ? "" : current)) select.value = options.browser ? "" : "en";
  select.addEventListener("change", async () => {
    select.disabled = true;
    try {
      await chooseLanguage(select.value || null);
      (options.onChosen || reloadInLanguage)(select.value || null);
    } catch (_error) {
      select.disabled = false;
      select.setCustomValidity(t("The language could not be changed; try again."));
      select.reportValidity();
    }
  });
  label.append(select);
  return label;
}

// Puts the menu in ``container`` (an element or its id), once.
export function mountLanguageMenu(container, options = {}) {
  const node = typeof container === "string" ? document.getElementById(container) : container;
  if (!node || node.querySelector(".language-menu")) return null;
  const menu = languageMenu(options);
  node.append(menu);
  return menu;
}
