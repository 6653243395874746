// The pages' words in the reader's language: the server's catalogue for the page's language
// (GET /i18n/{lang}.json), read once before any page script runs. Messages are English source
// strings with {name} placeholders, extracted by `pybabel extract` (keywords _, ngettext,
// pgettext); a message missing from the catalogue reads in English.

const LANG = document.documentElement.dataset.lang || document.documentElement.lang || "en";

async function load() {
  if (LANG === "en") return {};
  try {
    const response = await fetch(`/i18n/${encodeURIComponent(LANG)}.json`);
    if (!response.ok) return {};
    return (await response.json()).messages || {};
  } catch {
    return {};
  }
}

const MESSAGES = await load();
const PLURALS = new Intl.PluralRules(LANG === "xx" ? "en" : LANG);

/** The page's language code (what `?lang=` and the server's records of the choice say). */
export const lang = LANG;

function fill(text, values) {
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** `message` in the page's language, its {placeholders} filled from `values`. */
export function _(message, values) {
  const said = MESSAGES[message];
  return fill(typeof said === "string" ? said : message, values);
}

/** The form of `singular`/`plural` for `n` ({n} is n written the language's way). */
export function ngettext(singular, plural, n, values = {}) {
  const forms = MESSAGES[singular];
  const one = PLURALS.select(n) === "one";
  let said;
  if (Array.isArray(forms)) said = forms[one ? 0 : Math.min(1, forms.length - 1)];
  else said = n === 1 ? singular : plural;
  return fill(said, { n: number(n), ...values });
}

/** `message` in a context (the same English word meaning two things). */
export function pgettext(context, message, values) {
  const said = MESSAGES[`${context}\u0004${message}`];
  return fill(typeof said === "string" ? said : message, values);
}

/** A number written the page language's way. */
export function number(n) {
  return new Intl.NumberFormat(LANG === "xx" ? "en" : LANG).format(n);
}
