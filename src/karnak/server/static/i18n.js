// Karnak's texts in the reader's language, for every page's and every game's script.
//
//   import { t, nt, language, formatNumber, formatDate } from "/static/i18n.js";
//   t("Place a farmer in {province}", { province });
//   nt("{n} card", "{n} cards", n, { n });      // params.n defaults to n
//
// The server inlines the page's catalogue (karnak.server.pages) as
//   <script type="application/json" id="karnak-i18n">
//     {"language": "de", "domains": {"<game>": {"plural": "...", "messages": {...}},
//                                     "karnak": {...}}}
//   </script>
// so that t() answers synchronously from the first render. A message is looked up in each
// domain in that order (the game's first on a game page); a text without a translation shows
// in English. In the pseudo-locale "xx" every text comes back as ⟦text⟧ (translators and the
// tests see at once any text that bypassed the catalogues). Texts are keyed by their English;
// a context is written "context\u0004text" (pt()).
//
// Placeholders are {name}, filled from params (a missing one is left as written). Always pass
// a string literal as the first argument: extraction (python -m karnak.i18n.catalogs) reads
// t("..."), nt("...", "...") in every script.

export const PSEUDO = "xx";
export const CATALOGUE_ID = "karnak-i18n";
const CONTEXT_SEPARATOR = "\u0004";

let state = null;

function load() {
  if (state !== null) return state;
  let payload = {};
  try {
    const node = typeof document !== "undefined" ? document.getElementById(CATALOGUE_ID) : null;
    if (node && node.textContent) payload = JSON.parse(node.textContent);
  } catch (_error) {
    payload = {};
  }
  state = normalisePayload(payload);
  return state;
}

function normalisePayload(payload) {
  const language =
    (payload && typeof payload.language === "string" && payload.language) ||
    (typeof document !== "undefined" && document.documentElement && document.documentElement.lang) ||
    "en";
  const domains = [];
  const given = (payload && payload.domains) || {};
  for (const [name, domain] of Object.entries(given)) {
    domains.push({
      name,
      plural: pluralRule(language, domain && domain.plural),
      messages: (domain && domain.messages) || {},
    });
  }
  // The merged form {language, plural, messages} is taken too (one anonymous domain).
  if (payload && payload.messages) {
    domains.push({ name: "", plural: pluralRule(language, payload.plural), messages: payload.messages });
  }
  return { language, domains };
}

// Plural rules by their gettext expression. Pages may not evaluate code (the site's policy
// allows no eval), so the expressions Karnak's languages use are known here; any other one
// falls back to the language's rule, then to English's.
const RULES = {
  "n!=1": (n) => (n !== 1 ? 1 : 0),
  "n>1": (n) => (n > 1 ? 1 : 0),
  "0": () => 0,
};
const LANGUAGE_RULES = { de: RULES["n!=1"], en: RULES["n!=1"], fr: RULES["n>1"] };

function pluralRule(language, expression) {
  if (typeof expression === "string") {
    const key = expression.replace(/[\s()]/g, "");
    if (RULES[key]) return RULES[key];
  }
  return LANGUAGE_RULES[language] || RULES["n!=1"];
}

/** Replaces the catalogue (tests; a page that loads another language without reloading). */
export function setCatalogue(payload) {
  state = normalisePayload(payload || {});
}

/** The language of the page ("en", "de", "fr"; "xx" in the pseudo-locale). */
export function language() {
  return load().language;
}

/** The locale for Intl (the pseudo-locale formats as English). */
export function locale() {
  const lang = language();
  return lang === PSEUDO ? "en" : lang;
}

function lookup(key) {
  for (const domain of load().domains) {
    const found = domain.messages[key];
    if (found !== undefined && found !== null && found !== "") return { found, domain };
  }
  return null;
}

export function format(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) && params[name] !== undefined && params[name] !== null
      ? String(params[name])
      : whole,
  );
}

function bracket(text) {
  return `⟦${text}⟧`;
}

function translate(key, english) {
  if (language() === PSEUDO) return bracket(english);
  const hit = lookup(key);
  if (hit === null) return english;
  return Array.isArray(hit.found) ? hit.found[0] : hit.found;
}

/** ``text`` in the page's language, its {placeholders} filled from ``params``. */
export function t(text, params) {
  return format(translate(String(text), String(text)), params);
}

/** ``text`` in a context (the same English word translated two ways). */
export function pt(context, text, params) {
  return format(translate(`${context}${CONTEXT_SEPARATOR}${text}`, String(text)), params);
}

/** The form for ``n`` (singular, plural as written in English); params.n defaults to n. */
export function nt(singular, plural, n, params) {
  const filled = { n: formatNumber(n), ...(params || {}) };
  const english = n === 1 ? singular : plural;
  if (language() === PSEUDO) return format(bracket(english), filled);
  const hit = lookup(singular);
  if (hit === null) return format(english, filled);
  const forms = Array.isArray(hit.found) ? hit.found : [hit.found, hit.found];
  const index = Math.min(hit.domain.plural(Number(n)), forms.length - 1);
  return format(forms[index] || english, filled);
}

/** A number as the page's language writes it (1,234.5 / 1.234,5 / 1 234,5). */
export function formatNumber(n, options) {
  const value = Number(n);
  if (!Number.isFinite(value)) return String(n);
  try {
    return new Intl.NumberFormat(locale(), options).format(value);
  } catch (_error) {
    return String(value);
  }
}

/** A date (a Date, a timestamp in ms, or an ISO string) as the page's language writes it. */
export function formatDate(d, options) {
  const date = d instanceof Date ? d : new Date(d);
  if (Number.isNaN(date.getTime())) return String(d);
  const chosen = options || { dateStyle: "medium", timeStyle: "short" };
  try {
    return new Intl.DateTimeFormat(locale(), chosen).format(date);
  } catch (_error) {
    return date.toISOString();
  }
}

/** "3 minutes ago" / "vor 3 Minuten" / "il y a 3 minutes" (``seconds`` may be negative). */
export function formatRelative(seconds) {
  const units = [
    ["year", 365 * 86400],
    ["month", 30 * 86400],
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60],
    ["second", 1],
  ];
  const abs = Math.abs(seconds);
  for (const [unit, size] of units) {
    if (abs >= size || unit === "second") {
      try {
        return new Intl.RelativeTimeFormat(locale(), { numeric: "auto" }).format(
          Math.round(seconds / size),
          unit,
        );
      } catch (_error) {
        return `${Math.round(seconds / size)} ${unit}`;
      }
    }
  }
  return String(seconds);
}

/** Translates the elements under ``root`` marked data-i18n / data-i18n-attrs that a script
 * added after the page came (the server translated those of the page itself). */
export function translateTree(root) {
  const scope = root || (typeof document !== "undefined" ? document : null);
  if (!scope || !scope.querySelectorAll) return;
  for (const element of scope.querySelectorAll("[data-i18n]")) {
    if (element.dataset.i18nDone) continue;
    const text = element.textContent.replace(/\s+/g, " ").trim();
    if (text && element.children.length === 0) {
      const context = element.getAttribute("data-i18n");
      element.textContent = context ? pt(context, text) : translate(text, text);
    }
    element.dataset.i18nDone = "1";
  }
  for (const element of scope.querySelectorAll("[data-i18n-attrs]")) {
    if (element.dataset.i18nAttrsDone) continue;
    for (const name of element.getAttribute("data-i18n-attrs").split(/\s+/)) {
      const value = name && element.getAttribute(name);
      if (value) element.setAttribute(name, translate(value.replace(/\s+/g, " ").trim(), value));
    }
    element.dataset.i18nAttrsDone = "1";
  }
}
