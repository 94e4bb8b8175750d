// The interface's words in the page's language: the one catalogue the
// server's pages use too (internal/i18n/messages.json, bundled), with the
// browser's CLDR plural rules, and numbers in the reader's digits. The
// page says its language and digits on <html lang dir data-digits>.

import catalogue from "../../internal/i18n/messages.json";

const root = document.documentElement;

// lang is "ar" or "en"; rtl whether the page is written right to left.
export const lang = root.lang === "ar" ? "ar" : "en";
export const rtl = lang === "ar";
const arabicDigits = rtl && root.dataset.digits !== "latn";

// published is whether the page is a published site's, whose language is
// its folder (ar/), not its address's query.
const published = () => document.getElementById("syriamap-static") !== null;

// langParams are the address parameters that say the page's language
// (always, English too, so that a link reads alike to a reader who chose
// Arabic) and its Latin digits on an Arabic page; none on a published
// site.
export function langParams() {
  if (published()) return [];
  return lang === "ar" && !arabicDigits ? [["lang", lang], ["digits", "latn"]] : [["lang", lang]];
}

// localized is the link href to this site saying the page's language
// (langParams), as the server's pages' links do; a link elsewhere, or one
// that says a language, as given.
export function localized(href) {
  const params = langParams();
  if (!href || !params.length) return href;
  const u = new URL(href, location.href);
  if (u.origin !== location.origin || u.searchParams.has("lang")) return href;
  for (const [k, v] of params) u.searchParams.set(k, v);
  return u.pathname + u.search.replaceAll("%2F", "/") + u.hash;
}
const plurals = new Intl.PluralRules(lang);

// t is the message key, its {name}s filled from args: numbers in the
// reader's digits, text set apart (isolate) on a right-to-left page. A
// key the catalogue lacks shows as ⟦key⟧, which the tests look for.
export function t(key, args = {}) {
  const m = catalogue[key];
  if (!m) return `⟦${key}⟧`;
  let text = m[lang] ?? m.en;
  if (typeof text === "object") {
    const n = typeof args.n === "number" ? args.n : NaN;
    text = text[Number.isNaN(n) ? "other" : plurals.select(n)] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in args ? value(args[name]) : all));
}

function value(v) {
  if (typeof v === "number") return Number.isInteger(v) ? num(v) : dec(v, 2);
  return isolate(String(v));
}

// has says whether the catalogue holds key.
export function has(key) { return key in catalogue; }

// isolate sets text apart (FSI … PDI) on a right-to-left page, so that a
// Latin name's brackets and commas keep their order in an Arabic line.
export function isolate(s) { return rtl && s !== "" ? `\u2068${s}\u2069` : s; }

// digits rewrites Latin digits, "." and "," as the reader's: ١٢٬٣٤٥٫٦.
export function digits(s) {
  if (!arabicDigits) return String(s);
  return String(s).replace(/[0-9.,]/g, (c) => (c === "." ? "٫" : c === "," ? "٬" : String.fromCharCode(0x0660 + Number(c))));
}

// num writes a whole number with thousands separators: 12,345 or ١٢٬٣٤٥.
// (One formatter for all: toLocaleString makes one for each call, and the
// map labels hundreds of markers at a time.)
const whole = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });
export function num(n) { return digits(whole.format(Math.round(n))); }

// compact writes a count in the reader's short form, as CLDR has it: 950,
// 1.2k, 5k, 34k; ٩٥٠، ١٫٢ ألف، ٥ آلاف — no ".0", one decimal below ten
// thousand.
const compactForms = [0, 1].map((places) => new Intl.NumberFormat(lang === "ar" ? "ar-u-nu-latn" : "en",
  { notation: "compact", compactDisplay: "short", maximumFractionDigits: places }));
export function compact(n) {
  if (n < 1000) return num(n);
  const s = compactForms[n >= 10000 ? 0 : 1].format(n);
  return digits(lang === "ar" ? s : s.replace("K", "k").replace("M", "m"));
}

// dec writes a number with places decimals: 0.95 or ٠٫٩٥.
export function dec(x, places) { return digits(Number(x).toFixed(places)); }

// year writes a year without separators.
export function year(y) { return digits(String(y)); }

// monthName is month m (1–12): "June", "حزيران/يونيو".
export function monthName(m) { return t(`month.${m}`); }

// dateText writes a photo's date (ISO, the first day of its day, month
// or year) at its precision, as the server's pages do; "" when undated.
export function dateText(iso, precision) {
  if (!iso) return "";
  const [y, m, d] = iso.split("-").map(Number);
  if (precision === "year") return year(y);
  if (precision === "month") return `${monthName(m)} ${year(y)}`;
  return `${digits(d)} ${monthName(m)} ${year(y)}`;
}

// placementText is a photo's placement badge, as the server's pages
// write it: "exact · 0.95", "corrected", "not on the map".
export function placementText(p) {
  if (p.placement_class === "none") return t("placement.none");
  if (p.placement_class === "corrected") return t(`placement.${p.precision}`);
  return `${t(`placement.${p.placement_class}`)} · ${dec(p.confidence, 2)}`;
}

// placeName is a photo's (or a label's) place in the reader's language:
// the Arabic name on an Arabic page where the gazetteer has one.
export function placeName(name, nameAr) { return rtl && nameAr ? nameAr : name; }
