// Cite this view: a sentence that says what a link shows — how many
// photos, which filters, which window — and when it was retrieved, so a
// reader of a report can open exactly what its author saw.

import { windowText } from "./months.js";
import { dec, digits, isolate, t } from "./i18n.js";

// and joins names as a sentence does: "AFP", "AFP and Reuters",
// "AFP, Reuters and SANA" (in the reader's language).
function and(names) {
  names = names.map(isolate);
  if (names.length < 2) return names.join("");
  return t("cite.and", { list: names.slice(0, -1).join(t("common.list-sep")), last: names[names.length - 1] });
}

// citation is the sentence for a view. label(facet, value) names a
// filter's value as the page does ("Aleppo" for gn:170063).
// window is the explorer's (from, to, fromDay, toDay), whole when it is
// the whole archive; events the events layer shown (eventstate.js: ""
// for none).
export function citation({ count, filters, window, whole, label, url, today, events = "" }) {
  const parts = [t("common.photos", { n: count })];
  if (filters.q) parts.push(t("cite.matching", { q: filters.q }));
  if (filters.place.length) parts.push(t("cite.at", { places: and(filters.place.map((v) => label("place", v))) }));
  if (filters.governorate.length) parts.push(t("cite.governorates", { n: filters.governorate.length, names: and(filters.governorate.map((v) => label("governorate", v))) }));
  if (!whole) parts.push(windowText(window, "–"));
  const credits = [...filters.agency.map((v) => label("agency", v)), ...filters.photographer.map((v) => label("photographer", v))];
  if (credits.length) parts.push(t("cite.by", { names: and(credits) }));
  if (filters.min_confidence) parts.push(t("cite.confidence", { min: digits(filters.min_confidence) }));
  if (filters.agreement) parts.push(t("cite.metadata", { how: t(`agreement.option.${filters.agreement}`) }));
  if (events) parts.push(t(`cite.events.${events}`, { dataset: "UCDP GED" }));
  // Plain text: the isolates that keep names apart on the page would
  // travel into the report it is pasted in, nested four deep.
  return t("cite.sentence", { parts: parts.join(t("common.list-sep")), today: digits(today), url: url }).replace(/[\u2066-\u2069]/g, "");
}
