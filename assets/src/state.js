// The explorer's state lives in the URL: the time window (from, to as
// YYYY-MM), the map view (map=zoom/lat/lon) and the selected photo
// (photo=id), beside the filters the server reads. Reloading, back and
// forward and a copied link all give the same view.

import { parseMonth, formatMonth } from "./months.js";

export const filterKeys = ["q", "agency", "photographer", "place", "governorate", "min_confidence"];

export function readState(search) {
  const p = new URLSearchParams(search);
  const st = { from: parseMonth(p.get("from")), to: parseMonth(p.get("to"), true), view: null, photo: p.get("photo") || null, filters: {} };
  for (const k of filterKeys) if (p.get(k)) st.filters[k] = p.get(k);
  const v = /^(\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)$/.exec(p.get("map") || "");
  if (v) st.view = { zoom: Number(v[1]), lat: Number(v[2]), lon: Number(v[3]) };
  return st;
}

// writeState returns the query string for st, keeping the filters.
export function writeState(st, extent) {
  const p = new URLSearchParams();
  for (const k of filterKeys) if (st.filters[k]) p.set(k, st.filters[k]);
  // A window that is the whole extent is no filter at all.
  if (st.from !== null && st.to !== null && !(st.from <= extent.from && st.to >= extent.to)) {
    p.set("from", formatMonth(st.from));
    p.set("to", formatMonth(st.to));
  }
  if (st.view) p.set("map", `${st.view.zoom}/${st.view.lat.toFixed(4)}/${st.view.lon.toFixed(4)}`);
  if (st.photo) p.set("photo", st.photo);
  const s = p.toString();
  return s ? "?" + s : "";
}

// filterQuery is the API query for the filters, plus extra parameters.
export function filterQuery(filters, extra = {}) {
  const p = new URLSearchParams();
  for (const k of filterKeys) if (filters[k]) p.set(k, filters[k]);
  for (const [k, v] of Object.entries(extra)) if (v !== null && v !== undefined && v !== "") p.set(k, v);
  const s = p.toString();
  return s ? "?" + s : "";
}
