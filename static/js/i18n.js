// Words, numbers and dates in the page's language, for every module.
//
// The words come from Django's JavaScript catalogue (config/urls.py "javascript-catalog", translated in
// locale/<language>/LC_MESSAGES/djangojs.po), which templates/base.html loads before any module: it defines gettext,
// ngettext, pgettext and interpolate on `window`. Modules import them from here, so that a page whose catalogue did
// not load still works, in the English the strings are written in. A string to translate is written whole, in quotes,
// inside gettext(…), ngettext(…) or pgettext(…) (makemessages reads those calls); what varies goes in through named
// placeholders: interpolate(gettext("%(count)s of %(total)s"), { count, total }, true).
//
// Numbers and dates follow <html lang> (the active language, set by templates/base.html).

const ENGLISH = {
  gettext: (text) => text,
  pgettext: (_context, text) => text,
  ngettext: (singular, plural, count) => (count === 1 ? singular : plural),
  interpolate: (format, values, named) => (named
    ? format.replace(/%\(\w+\)s/g, (match) => String(values[match.slice(2, -2)]))
    : format.replace(/%s/g, () => String(values.shift()))),
};

const catalogue = typeof window.gettext === "function" ? window : ENGLISH;

export const gettext = (text) => catalogue.gettext(text);
export const ngettext = (singular, plural, count) => catalogue.ngettext(singular, plural, count);
// A word that means more than one thing in English, told apart by `context` (pgettext("hardness", "hard")).
export const pgettext = (context, text) => catalogue.pgettext(context, text);
export const interpolate = (format, values, named = false) => catalogue.interpolate(format, values, named);

/** The page's language, as Intl takes it ("en", "zh-hans"). */
export const LANGUAGE = document.documentElement.lang || "en";

/** A number as the page's language writes it (1,234.5 in English). `options`: Intl.NumberFormat's. */
export function formatNumber(value, options = undefined) {
  return new Intl.NumberFormat(LANGUAGE, options).format(value);
}

/** A share (0.125) as a percentage with `digits` decimals ("12.5%"). */
export function formatPercent(share, digits = 1) {
  return formatNumber(share, { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A time of day, hours and minutes ("14:05", "下午2:05"). */
export function formatTime(moment) {
  return new Date(moment).toLocaleTimeString(LANGUAGE, { hour: "2-digit", minute: "2-digit" });
}
