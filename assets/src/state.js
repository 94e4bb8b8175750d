// The explorer's state lives in the URL: the filters the server reads
// (agency, photographer, place and governorate may repeat), the time
// window (from, to as YYYY-MM, or YYYY-MM-DD when a day was asked for:
// fromDay, toDay keep it), the map view (map=zoom/lat/lon) and the
// selected photo (photo=id), the conflict events layer (events=1, see
// eventstate.js) and the page's language (lang=en or ar, and digits=latn
// for Latin digits; a published site's is its folder). Reloading, back
// and forward and a copied link all give the same view, in the same
// language, to whoever opens it.

import { parseMonth, formatMonth, parseDay, formatDay } from "./months.js";
import { langParams } from "./i18n.js";
import { readEvents, writeEvents } from "./eventstate.js";

// multiKeys are the filters that take several values; singleKeys one.
export const multiKeys = ["agency", "photographer", "place", "governorate"];
export const singleKeys = ["q", "min_confidence", "agreement", "reuse", "event", "verified"];

export function emptyFilters() {
  const f = {};
  for (const k of multiKeys) f[k] = [];
  for (const k of singleKeys) f[k] = "";
  return f;
}

export function readState(search) {
  const p = new URLSearchParams(search);
  const st = {
    from: parseMonth(p.get("from")), to: parseMonth(p.get("to"), true),
    fromDay: parseDay(p.get("from")), toDay: parseDay(p.get("to")),
    view: null, photo: p.get("photo") || null, filters: emptyFilters(), events: readEvents(p),
  };
  for (const k of multiKeys) st.filters[k] = [...new Set(p.getAll(k).map((v) => v.trim()).filter(Boolean))];
  for (const k of singleKeys) st.filters[k] = (p.get(k) || "").trim();
  const v = /^(\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)$/.exec(p.get("map") || "");
  if (v) st.view = { zoom: Number(v[1]), lat: Number(v[2]), lon: Number(v[3]) };
  return st;
}

// writeState returns the query string for st.
export function writeState(st, extent) {
  const p = filterParams(st.filters);
  // A window that is the whole extent is no filter at all.
  const w = windowParams(st, extent);
  if (w.from) {
    p.set("from", w.from);
    p.set("to", w.to);
  }
  // The events layer is no filter of photos: the API never sees it.
  writeEvents(p, st.events);
  if (st.view) p.set("map", `${st.view.zoom}/${st.view.lat.toFixed(4)}/${st.view.lon.toFixed(4)}`);
  if (st.photo) p.set("photo", st.photo);
  for (const [k, v] of langParams()) p.set(k, v);
  // A slash needs no escape in a query: the view reads as zoom/lat/lon
  // in a copied link (URLSearchParams writes %2F).
  const s = p.toString().replace(/(^|&)map=([^&]*)/, (_, lead, v) => `${lead}map=${v.replaceAll("%2F", "/")}`);
  return s ? "?" + s : "";
}

// windowParams is the window as the API takes it, {} for the whole
// extent: each edge a month, or the day it was given as.
export function windowParams(st, extent) {
  if (st.from === null || st.to === null) return {};
  if (st.from <= extent.from && st.to >= extent.to && !st.fromDay && !st.toDay) return {};
  return { from: st.fromDay ? formatDay(st.fromDay) : formatMonth(st.from), to: st.toDay ? formatDay(st.toDay) : formatMonth(st.to) };
}

function filterParams(filters, except) {
  const p = new URLSearchParams();
  for (const k of multiKeys) if (k !== except) for (const v of filters[k] || []) p.append(k, v);
  for (const k of singleKeys) if (filters[k]) p.set(k, filters[k]);
  return p;
}

// filterQuery is the API query for the filters (but the one named by
// except), plus extra parameters.
export function filterQuery(filters, extra = {}, except = null) {
  const p = filterParams(filters, except);
  for (const [k, v] of Object.entries(extra)) if (v !== null && v !== undefined && v !== "") p.set(k, v);
  const s = p.toString();
  return s ? "?" + s : "";
}
