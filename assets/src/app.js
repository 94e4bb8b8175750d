// The explorer's map, timeline, filters and lists, on top of the
// server-rendered page: without JavaScript the page still lists and
// filters the photos.

import { PhotoMap, placeMap } from "./map.js";
import { Timeline } from "./timeline.js";
import { FilterForm, h } from "./filters.js";
import { row, card } from "./list.js";
import { readState, writeState, filterQuery } from "./state.js";
import { month, parseMonth, formatMonth, firstDay, lastDay, longMonth } from "./months.js";
import { review } from "./review.js";

for (const el of document.querySelectorAll("[data-testid=place-map]")) placeMap(el);
const reviewRoot = document.getElementById("review");
if (reviewRoot) review(reviewRoot);


// The default extent; the archive's own dates widen it.
const DEFAULT_EXTENT = { from: month(2012, 1), to: month(2017, 12) };
const PAGE = 50; // photos a list shows at a time
const PANEL_PAGE = 20; // photos a stacked spot's panel shows at a time
const DAYS_BELOW = 3; // months: a window this short shows its days

// Up to data-points-limit photos (200,000 unless the server says) the page
// loads them all once, compactly, and filters them itself; above it the
// server clusters for each view and window.

async function main(root) {
  const cfg = { ...root.dataset };
  const $ = (id) => document.querySelector(`[data-testid=${id}]`);
  const status = $("map-status"), count = $("count"), scope = $("list-scope"), list = $("photo-list");
  const unplaced = $("unplaced"), unplacedList = $("unplaced-list"), downloads = $("downloads");
  const side = document.getElementById("side"), handle = $("sheet-handle"), selected = $("selected-card");
  const pager = document.querySelector("nav.pages");
  const phone = window.matchMedia("(max-width: 640px)");
  const serverSide = Number(cfg.total) > Number(cfg.pointsLimit || 200000);
  let st = readState(location.search);
  let ready = false; // the points and the timeline are loaded
  let points = [];
  let extent = { ...DEFAULT_EXTENT };
  let listTimer = null, listSeq = 0, clusterTimer = null, clusterSeq = 0, firstClusters = true, daySeq = 0;
  let matching = 0, notOnMap = 0;

  const map = new PhotoMap(document.getElementById("map"), cfg, {
    onSelect: (id) => select(id, true),
    onSpot: (spot) => panel.open(spot),
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

  const filters = new FilterForm($("filters"), {
    facetsUrl: cfg.facetsUrl,
    query: (except, extra) => filterQuery(st.filters, { ...windowQuery(), ...extra }, except),
    onChange: (f) => {
      st.filters = f;
      saveState(true);
      load().catch((err) => { status.textContent = `The photos could not load: ${err.message}`; });
    },
    onWindow: (from, to) => {
      const a = parseMonth(from.trim()) ?? extent.from, b = parseMonth(to.trim(), true) ?? extent.to;
      timeline.move(Math.min(a, b), Math.max(a, b), true);
    },
  });

  const timeline = new Timeline(document.getElementById("timeline"), (from, to, final) => {
    st.from = from;
    st.to = to;
    applyWindow();
    // A drag rewrites the URL when it ends, as one step of history.
    if (final) saveState(true);
  });

  const panel = new SpotPanel($("spot-panel"), {
    query: (extra) => cfg.listUrl + filterQuery(st.filters, { ...windowQuery(), order: "newest", ...extra }),
    window: () => windowText(),
    row: (f) => row(f, cfg.placeUrl, { onSelect: (id) => select(id, true) }),
  });

  // On a phone, the list, the filters and a chosen photo are a sheet over
  // the map.
  const layoutFor = () => {
    handle.hidden = !phone.matches;
    side.classList.toggle("sheet", phone.matches);
    if (!phone.matches) side.classList.remove("open");
    map.invalidate();
  };
  phone.addEventListener("change", layoutFor);
  layoutFor();
  handle.addEventListener("click", () => setSheet(!side.classList.contains("open")));
  function setSheet(open) {
    side.classList.toggle("open", open);
    handle.setAttribute("aria-expanded", String(open));
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || ev.defaultPrevented) return;
    if (!panel.el.hidden) panel.close();
    else if (side.classList.contains("open")) setSheet(false);
    else map.closePopup();
  });

  status.textContent = "Loading photos…";
  await load();
  status.textContent = "";
  if (!serverSide) performance.mark("syriamap:first-render");
  if (st.photo) select(st.photo, false);

  window.addEventListener("popstate", () => {
    const before = JSON.stringify(st.filters);
    st = readState(location.search);
    filters.set(st.filters);
    if (st.view) map.setView(st.view);
    if (JSON.stringify(st.filters) !== before) load();
    else setWindow();
    if (st.photo) select(st.photo, false);
  });

  // load fetches the photos and the timeline for the filters, keeping the
  // window, the view and the chosen photo.
  async function load() {
    const [pointsRes, binsRes] = await Promise.all([
      serverSide ? null : fetch(cfg.pointsUrl + filterQuery(st.filters)),
      fetch(cfg.timelineUrl + filterQuery(st.filters, { bin: "month" })),
    ]);
    if ((pointsRes && !pointsRes.ok) || !binsRes.ok) throw new Error(`the API answered ${pointsRes?.status}/${binsRes.status}`);
    points = serverSide ? [] : (await pointsRes.json()).points.map(([id, lon, lat, from, to, placement]) => ({
      id, lon, lat, from, to, placement, geometry: lon !== null,
    }));
    const counts = new Map();
    for (const b of (await binsRes.json()).counts || []) {
      const m = parseMonth(b.bin);
      if (m === null || b.bin.length !== 7) continue; // year-only bins have no month bar
      counts.set(m, b.count);
      extent.from = Math.min(extent.from, m);
      extent.to = Math.max(extent.to, m);
    }
    timeline.setBins(counts, extent);
    setWindow();
    ready = true;
    applyWindow();
  }

  function setWindow() {
    timeline.set(st.from ?? extent.from, st.to ?? extent.to);
    st.from = timeline.from;
    st.to = timeline.to;
  }

  function whole() { return st.from <= extent.from && st.to >= extent.to; }
  function windowQuery() { return whole() ? {} : { from: formatMonth(st.from), to: formatMonth(st.to) }; }
  function windowText() { return whole() ? "" : st.from === st.to ? longMonth(st.from) : `${longMonth(st.from)} – ${longMonth(st.to)}`; }

  // applyWindow filters the loaded points to the window and redraws.
  function applyWindow() {
    if (!ready) return;
    const start = performance.now();
    filters.windowMoved();
    filters.setWindow(whole() ? "" : formatMonth(st.from), whole() ? "" : formatMonth(st.to));
    if (serverSide) {
      scheduleClusters();
    } else {
      // A photo is in the window when the period its date covers overlaps
      // it; undated photos only when the window is everything.
      const lo = firstDay(st.from), hi = lastDay(st.to), all = whole();
      const shown = points.filter((p) => (p.from === 0 ? all : p.to >= lo && p.from <= hi));
      const placed = shown.filter((p) => p.geometry);
      map.setPoints(placed);
      showCount(shown.length, shown.length - placed.length);
    }
    drawDownloads();
    scheduleList();
    scheduleDays();
    // Timings for the benchmarks (and anyone's dev tools).
    performance.measure("syriamap:window", { start });
  }

  function showCount(n, off) {
    matching = n;
    notOnMap = off;
    count.textContent = `${n.toLocaleString("en")} of ${Number(cfg.total).toLocaleString("en")} photos` +
      (off > 0 ? ` · ${off.toLocaleString("en")} not on the map` : "");
    handle.textContent = `Photos and filters (${n.toLocaleString("en")})`;
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
    showCount(out.matching, notOnMap);
    performance.measure("syriamap:clusters", { start });
    if (firstClusters) {
      firstClusters = false;
      performance.mark("syriamap:first-render");
    }
  }

  // The days of a short window, under the timeline.
  function scheduleDays() {
    const seq = ++daySeq;
    if (st.to - st.from >= DAYS_BELOW) {
      timeline.showDays(null);
      return;
    }
    const from = formatMonth(st.from), to = formatMonth(st.to);
    fetch(cfg.timelineUrl + filterQuery(st.filters, { bin: "day", from, to })).then((r) => (r.ok ? r.json() : null)).then((out) => {
      if (!out || seq !== daySeq) return;
      const byDay = new Map(out.counts.map((c) => [c.bin, c.count]));
      const days = [];
      for (let d = new Date(Date.UTC(Math.floor(st.from / 12), st.from % 12, 1)); d <= new Date(Date.UTC(Math.floor(st.to / 12), st.to % 12 + 1, 0)); d.setUTCDate(d.getUTCDate() + 1)) {
        const day = d.toISOString().slice(0, 10);
        days.push({ day, count: byDay.get(day) || 0 });
      }
      timeline.showDays(days);
    });
  }

  // The downloads: the whole selection, or what is in the map's view.
  function drawDownloads() {
    const sel = { ...windowQuery(), download: 1 };
    const view = { ...sel, bbox: map.bbox() };
    const link = (url, text, id) => h("a", { class: "button secondary", href: url, download: "", "data-testid": id }, text);
    downloads.replaceChildren(
      link(cfg.listUrl + filterQuery(st.filters, sel), "Download the selection (GeoJSON)", "download-geojson"),
      link(cfg.csvUrl + filterQuery(st.filters, sel), "CSV", "download-csv"),
      link(cfg.listUrl + filterQuery(st.filters, view), "Download what is in view (GeoJSON)", "download-view-geojson"),
      link(cfg.csvUrl + filterQuery(st.filters, view), "CSV", "download-view-csv"),
    );
  }

  function saveState(push) {
    const url = location.pathname + writeState(st, extent);
    if (url === location.pathname + location.search) return;
    if (push) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
  }

  // select shows a photo: its popup on the map, or on a phone (and for a
  // photo not on the map) its card above the list. The page never
  // scrolls: only the list does, inside its column, to the photo's row.
  async function select(id, push) {
    st.photo = id;
    if (push) saveState(true);
    const res = await fetch(cfg.photoGeojsonUrl.replace("{id}", encodeURIComponent(id)));
    if (!res.ok) return;
    const f = await res.json();
    const c = card(f, cfg.placeUrl, { others: map.othersAt(id), onOthers: () => panel.open(map.spotOfPhoto(id)) });
    if (f.geometry && !phone.matches) {
      selected.hidden = true;
      const [lon, lat] = f.geometry.coordinates;
      map.openPopup(c, lat, lon);
    } else {
      map.closePopup();
      const close = h("button", { type: "button", class: "button secondary", "data-testid": "selected-close" }, "Close");
      close.addEventListener("click", () => { selected.hidden = true; });
      selected.replaceChildren(c, close);
      selected.hidden = false;
      if (phone.matches) setSheet(true);
      side.scrollTop = 0;
    }
    markCurrent();
  }

  function markCurrent() {
    for (const r of document.querySelectorAll("[data-testid=photo-row][aria-current]")) r.removeAttribute("aria-current");
    const r = st.photo && list.querySelector(`[data-id="${CSS.escape(st.photo)}"]`);
    if (!r) return;
    r.setAttribute("aria-current", "true");
    // Scroll the list's own column, never the page.
    if (side.scrollHeight > side.clientHeight) {
      const top = r.offsetTop - side.offsetTop;
      if (top < side.scrollTop || top > side.scrollTop + side.clientHeight - r.offsetHeight) side.scrollTop = top - 40;
    }
  }

  // The list shows the photos in view and in the window, newest first, a
  // page at a time from the API; it follows the map after a short pause.
  // The photos not on the map are listed apart.
  function scheduleList() {
    clearTimeout(listTimer);
    listTimer = setTimeout(() => { updateList(0); updateUnplaced(0); }, 150);
  }

  async function updateList(offset) {
    const seq = ++listSeq;
    const query = filterQuery(st.filters, { ...windowQuery(), bbox: map.bbox(), order: "newest", limit: PAGE + 1, offset });
    const res = await fetch(cfg.listUrl + query);
    if (!res.ok || seq !== listSeq) return;
    const fc = await res.json();
    const rows = fc.features.slice(0, PAGE).map((f) => row(f, cfg.placeUrl, { onHover: (at) => map.show(at), onSelect: (id) => select(id, true) }));
    if (offset === 0) list.replaceChildren(...rows);
    else list.append(...rows);
    const inView = serverSide ? null : points.filter((p) => p.geometry && inWindow(p) && map.contains(p.lon, p.lat)).length;
    scope.hidden = false;
    scope.textContent = inView === null ? "The list follows the map: it shows the photos in view, newest first."
      : `The list follows the map: ${inView.toLocaleString("en")} of the ${matching.toLocaleString("en")} photos are in view, newest first.`;
    if (pager) {
      // The server's pages list the whole selection; here a button adds
      // the next page of the photos in view.
      pager.replaceChildren();
      if (fc.features.length > PAGE) {
        const more = h("button", { type: "button", class: "button secondary", "data-testid": "more" }, "More photos in view");
        more.addEventListener("click", () => updateList(offset + PAGE));
        pager.append(more);
      }
    }
    markCurrent();
  }

  function inWindow(p) {
    return p.from === 0 ? whole() : p.to >= firstDay(st.from) && p.from <= lastDay(st.to);
  }

  async function updateUnplaced(offset) {
    if (!serverSide && notOnMap === 0) {
      unplaced.hidden = true;
      return;
    }
    const res = await fetch(cfg.listUrl + filterQuery(st.filters, { ...windowQuery(), unplaced: "true", order: "newest", limit: PAGE + 1, offset }));
    if (!res.ok) return;
    const fc = await res.json();
    const rows = fc.features.slice(0, PAGE).map((f) => row(f, cfg.placeUrl, { onSelect: null }));
    for (const r of rows) {
      const id = r.dataset.id;
      r.querySelector("[data-testid=placement]").textContent = "not on the map";
      r.addEventListener("click", (ev) => { if (ev.target.closest("a")) return; select(id, true); });
    }
    if (offset === 0) unplacedList.replaceChildren(...rows);
    else unplacedList.append(...rows);
    unplaced.hidden = fc.features.length === 0 && offset === 0;
    unplaced.querySelector("[data-testid=more-unplaced]")?.remove();
    if (fc.features.length > PAGE) {
      const more = h("button", { type: "button", class: "button secondary", "data-testid": "more-unplaced" }, "More photos not on the map");
      more.addEventListener("click", () => updateUnplaced(offset + PAGE));
      unplaced.append(more);
    }
  }
}

// SpotPanel lists the photos at a stacked spot (or a cluster that no zoom
// splits): "54 photos at Aleppo Citadel, 2016", a page at a time, each
// opening its popup.
class SpotPanel {
  constructor(el, { query, window, row }) {
    this.el = el;
    this.query = query;
    this.window = window;
    this.row = row;
    this.title = el.querySelector("[data-testid=spot-title]");
    this.list = el.querySelector("[data-testid=spot-list]");
    this.prev = el.querySelector("[data-testid=panel-prev]");
    this.next = el.querySelector("[data-testid=panel-next]");
    this.range = el.querySelector("[data-testid=panel-range]");
    el.querySelector("[data-testid=panel-close]").addEventListener("click", () => this.close());
    this.prev.addEventListener("click", () => this.page(this.offset - PANEL_PAGE));
    this.next.addEventListener("click", () => this.page(this.offset + PANEL_PAGE));
  }

  async open(spot) {
    if (!spot) return;
    this.spot = spot;
    this.opener = document.activeElement;
    this.el.hidden = false;
    this.title.textContent = `${spot.count.toLocaleString("en")} photos`;
    await this.page(0);
    this.el.querySelector("[data-testid=panel-close]").focus();
  }

  async page(offset) {
    this.offset = Math.max(0, offset);
    const res = await fetch(this.query({ bbox: this.spot.bbox, limit: PANEL_PAGE + 1, offset: this.offset }));
    if (!res.ok) return;
    const fc = await res.json();
    const features = fc.features.slice(0, PANEL_PAGE);
    // Named after the place most of them share.
    const names = new Map();
    for (const f of features) if (f.properties.place_name) names.set(f.properties.place_name, (names.get(f.properties.place_name) || 0) + 1);
    const place = [...names].sort((a, b) => b[1] - a[1])[0]?.[0];
    const when = this.window();
    this.title.textContent = `${this.spot.count.toLocaleString("en")} photos${place ? ` at ${place}` : " here"}${when ? `, ${when}` : ""}`;
    this.list.replaceChildren(...features.map(this.row));
    this.prev.hidden = this.offset === 0;
    this.next.hidden = fc.features.length <= PANEL_PAGE;
    this.range.textContent = `${this.offset + 1}–${this.offset + features.length} of ${this.spot.count.toLocaleString("en")}`;
  }

  close() {
    this.el.hidden = true;
    if (this.opener && document.contains(this.opener)) this.opener.focus();
  }
}

// Started last: main uses the classes above.
const root = document.getElementById("explorer");
if (root) main(root).catch((err) => {
  console.error(err);
  const s = document.querySelector("[data-testid=map-status]");
  if (s) s.textContent = `The map could not load: ${err.message}`;
});
