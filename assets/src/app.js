// The explorer's map and timeline, on top of the server-rendered page:
// without JavaScript the page still lists and filters the photos.

import { PhotoMap, placeMap, badge } from "./map.js";
import { Timeline } from "./timeline.js";
import { readState, writeState, filterQuery } from "./state.js";
import { month, parseMonth, formatMonth, firstDay, lastDay, longMonth } from "./months.js";

for (const el of document.querySelectorAll("[data-testid=place-map]")) placeMap(el);

const root = document.getElementById("explorer");
if (root) main(root).catch((err) => {
  console.error(err);
  const s = document.querySelector("[data-testid=map-status]");
  if (s) s.textContent = `The map could not load: ${err.message}`;
});

// The default extent; the archive's own dates widen it.
const DEFAULT_EXTENT = { from: month(2012, 1), to: month(2017, 12) };

// Up to data-points-limit photos (200,000 unless the server says) the page
// loads them all once, compactly, and filters them itself; above it the
// server clusters for each view and window.

async function main(root) {
  const cfg = { ...root.dataset };
  let st = readState(location.search);
  let listTimer = null, listSeq = 0; // the list's pending and latest requests
  let ready = false; // the points and the timeline are loaded
  let clusterTimer = null, clusterSeq = 0, firstClusters = true; // server-side clusters' requests
  const status = document.querySelector("[data-testid=map-status]");
  const count = document.querySelector("[data-testid=count]");
  const list = document.querySelector("[data-testid=photo-list]");
  const downloads = [...document.querySelectorAll("[data-testid=downloads] a")];
  const pager = document.querySelector("nav.pages");

  const map = new PhotoMap(document.getElementById("map"), cfg, {
    onSelect: (id) => select(id, true),
    onMove: () => {
      if (!ready) return; // a view set from the URL, before the data is in
      st.view = map.view;
      saveState(false);
      if (serverSide) scheduleClusters();
      scheduleList();
    },
  });
  if (st.view) map.setView(st.view);
  map.loadBasemap(!st.view).catch((err) => console.error(err));

  status.textContent = "Loading photos…";
  const serverSide = Number(cfg.total) > Number(cfg.pointsLimit || 200000);
  const [pointsRes, binsRes] = await Promise.all([
    serverSide ? null : fetch(cfg.pointsUrl + filterQuery(st.filters)),
    fetch(cfg.timelineUrl + filterQuery(st.filters, { bin: "month" })),
  ]);
  if ((pointsRes && !pointsRes.ok) || !binsRes.ok) throw new Error(`the API answered ${pointsRes?.status}/${binsRes.status}`);
  const points = serverSide ? [] : (await pointsRes.json()).points.map(([id, lon, lat, from, to, placement]) => ({
    id, lon, lat, from, to, placement, geometry: lon === null ? null : { type: "Point", coordinates: [lon, lat] },
  }));
  const counts = new Map();
  const extent = { ...DEFAULT_EXTENT };
  for (const b of (await binsRes.json()).counts || []) {
    const m = parseMonth(b.bin);
    if (m === null || b.bin.length !== 7) continue; // year-only bins have no month bar
    counts.set(m, b.count);
    extent.from = Math.min(extent.from, m);
    extent.to = Math.max(extent.to, m);
  }
  status.textContent = "";

  const timeline = new Timeline(document.getElementById("timeline"), (from, to, final) => {
    st.from = from;
    st.to = to;
    applyWindow();
    // A drag rewrites the URL when it ends, as one step of history.
    if (final) saveState(true);
  });
  timeline.setBins(counts, extent);
  timeline.set(st.from ?? extent.from, st.to ?? extent.to);
  st.from = timeline.from;
  st.to = timeline.to;
  ready = true;
  applyWindow();
  if (!serverSide) performance.mark("syriamap:first-render");
  if (st.photo) select(st.photo, false);

  window.addEventListener("popstate", () => {
    st = readState(location.search);
    if (st.view) map.setView(st.view);
    timeline.set(st.from ?? extent.from, st.to ?? extent.to);
    st.from = timeline.from;
    st.to = timeline.to;
    applyWindow();
    if (st.photo) select(st.photo, false);
  });

  function whole() { return st.from <= extent.from && st.to >= extent.to; }

  // applyWindow filters the loaded points to the window and redraws.
  function applyWindow() {
    const start = performance.now();
    const lo = firstDay(st.from), hi = lastDay(st.to), all = whole();
    if (serverSide) {
      scheduleClusters();
    } else {
      // A photo is in the window when the period its date covers overlaps
      // it; undated photos only when the window is everything.
      const shown = points.filter((p) => (p.from === 0 ? all : p.to >= lo && p.from <= hi));
      map.setPoints(shown.filter((p) => p.geometry));
      showCount(shown.length);
    }
    const w = windowQuery();
    downloads[0].href = cfg.listUrl + filterQuery(st.filters, { ...w, download: 1 });
    downloads[1].href = cfg.csvUrl + filterQuery(st.filters, { ...w, download: 1 });
    scheduleList();
    // Timings for the benchmarks (and anyone's dev tools).
    performance.measure("syriamap:window", { start });
  }

  function showCount(n) {
    count.textContent = `${n.toLocaleString("en")} of ${Number(cfg.total).toLocaleString("en")} photos`;
  }

  function windowQuery() {
    return whole() ? {} : { from: formatMonth(st.from), to: formatMonth(st.to) };
  }

  // Server-side clusters for the view and window (large archives).
  function scheduleClusters() {
    clearTimeout(clusterTimer);
    clusterTimer = setTimeout(updateClusters, firstClusters ? 0 : 120);
  }
  async function updateClusters() {
    const seq = ++clusterSeq;
    const start = performance.now();
    const res = await fetch(cfg.clustersUrl + filterQuery(st.filters, { ...windowQuery(), bbox: map.bbox(), zoom: Math.round(map.view.zoom) }));
    if (!res.ok || seq !== clusterSeq) return;
    const out = await res.json();
    map.setClusters(out.clusters);
    showCount(out.matching);
    performance.measure("syriamap:clusters", { start });
    if (firstClusters) {
      firstClusters = false;
      performance.mark("syriamap:first-render");
    }
  }

  function saveState(push) {
    const url = location.pathname + writeState(st, extent);
    if (url === location.pathname + location.search) return;
    if (push) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
  }

  // select opens a photo's popup and scrolls its row into view.
  function select(id, push) {
    st.photo = id;
    map.openPopup(id);
    const row = list.querySelector(`[data-id="${CSS.escape(id)}"]`);
    list.querySelectorAll("[aria-current]").forEach((r) => r.removeAttribute("aria-current"));
    if (row) {
      row.setAttribute("aria-current", "true");
      row.scrollIntoView({ block: "nearest" });
    }
    if (push) saveState(true);
  }

  // The list shows the photos in view and in the window, newest first, a
  // page at a time from the API; it follows the map after a short pause.
  const PAGE = 50;
  function scheduleList() {
    clearTimeout(listTimer);
    listTimer = setTimeout(() => updateList(0), 150);
  }
  async function updateList(offset) {
    const seq = ++listSeq;
    const query = filterQuery(st.filters, { ...windowQuery(), bbox: map.bbox(), order: "newest", limit: PAGE + 1, offset });
    const res = await fetch(cfg.listUrl + query);
    if (!res.ok || seq !== listSeq) return;
    const fc = await res.json();
    const rows = fc.features.slice(0, PAGE).map(row);
    if (offset === 0) list.replaceChildren(...rows);
    else list.append(...rows);
    if (pager) {
      // The server's pages list the whole selection; here a button adds
      // the next page of the photos in view.
      pager.replaceChildren();
      if (fc.features.length > PAGE) {
        const more = document.createElement("button");
        more.type = "button";
        more.className = "button secondary";
        more.dataset.testid = "more";
        more.textContent = "More photos in view";
        more.addEventListener("click", () => updateList(offset + PAGE));
        pager.append(more);
      }
    }
    if (st.photo) list.querySelector(`[data-id="${CSS.escape(st.photo)}"]`)?.setAttribute("aria-current", "true");
  }

  function row(f) {
    const p = f.properties;
    const el = (tag, attrs = {}, text) => {
      const e = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text) e.textContent = text;
      return e;
    };
    const li = el("li", { "data-testid": "photo-row", "data-id": f.id });
    if (p.thumbnail_url) li.append(el("img", { src: p.thumbnail_url, alt: "", loading: "lazy" }));
    const body = el("div");
    const meta = el("div", { class: "meta" });
    meta.append(el("span", { "data-testid": "date" }, longDate(p.date, p.date_precision) || "undated"));
    if (p.place_name) {
      meta.append(" · ");
      meta.append(p.place_id ? el("a", { href: cfg.placeUrl.replace("{id}", encodeURIComponent(p.place_id)), "data-testid": "place" }, p.place_name)
        : el("span", { "data-testid": "place" }, p.place_name));
    }
    const b = badge(p, !!f.geometry);
    meta.append(el("span", { class: `badge ${b.cls}`, "data-testid": "placement" }, b.label));
    body.append(meta);
    const cap = el("p", { class: "caption" });
    cap.append(el("a", { href: p.url, "data-testid": "caption" }, p.caption));
    body.append(cap);
    const credit = [p.photographer, p.agency].filter(Boolean).join(" / ");
    if (credit) body.append(el("div", { class: "meta", "data-testid": "credit" }, credit));
    li.append(body);
    const at = f.geometry ? { lon: f.geometry.coordinates[0], lat: f.geometry.coordinates[1] } : null;
    li.addEventListener("mouseenter", () => map.show(at));
    li.addEventListener("mouseleave", () => map.show(null));
    li.addEventListener("focusin", () => map.show(at));
    return li;
  }
}

// longDate writes an ISO date at its precision, as the server's pages do.
function longDate(iso, precision) {
  if (!iso) return "";
  const [y, m, d] = iso.split("-").map(Number);
  if (precision === "year") return String(y);
  const name = longMonth(month(y, m)).split(" ")[0];
  return precision === "month" ? `${name} ${y}` : `${d} ${name} ${y}`;
}
