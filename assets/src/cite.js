// Cite this view: a sentence that says what a link shows — how many
// photos, which filters, which window — and when it was retrieved, so a
// reader of a report can open exactly what its author saw.

import { windowText } from "./months.js";

// and joins names as a sentence does: "AFP", "AFP and Reuters",
// "AFP, Reuters and SANA".
function and(names) {
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

// citation is the sentence for a view. label(facet, value) names a
// filter's value as the page does ("Aleppo" for gn:170063).
// window is the explorer's (from, to, fromDay, toDay), whole when it is
// the whole archive.
export function citation({ count, filters, window, whole, label, url, today }) {
  const parts = [`${count.toLocaleString("en")} photo${count === 1 ? "" : "s"}`];
  if (filters.q) parts.push(`matching “${filters.q}”`);
  if (filters.place.length) parts.push(`at ${and(filters.place.map((v) => label("place", v)))}`);
  if (filters.governorate.length) parts.push(`${and(filters.governorate.map((v) => label("governorate", v)))} governorate${filters.governorate.length > 1 ? "s" : ""}`);
  if (!whole) parts.push(windowText(window, "–"));
  const credits = [...filters.agency.map((v) => label("agency", v)), ...filters.photographer.map((v) => label("photographer", v))];
  if (credits.length) parts.push(`by ${and(credits)}`);
  if (filters.min_confidence) parts.push(`placed with confidence ≥ ${filters.min_confidence}`);
  if (filters.agreement) parts.push(`image metadata ${filters.agreement}`);
  return `${parts.join(", ")}; syriamap, retrieved ${today}. ${url}`;
}
