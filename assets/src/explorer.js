// Explorer is the explorer page's map, timeline, filters and lists, on top
// of the server-rendered page: without JavaScript the page still lists and
// filters the photos.
//
// Up to data-points-limit photos (200,000 unless the server says) the page
// loads them all once, compactly, and filters them itself; above it the
// server clusters for each view and window.

import { PhotoMap } from "./map.js";
import { EventLayer } from "./events.js";
import { Timeline } from "./timeline.js";
import { FilterForm, h } from "./filters.js";
import { row, card } from "./list.js";
import { readState, writeState, filterQuery, windowParams } from "./state.js";
import { month, parseMonth, formatMonth, firstDay, lastDay, parseDay, monthOfDay, overlaps, windowText } from "./months.js";
import { PhotoList } from "./photolist.js";
import { SpotPanel } from "./spotpanel.js";
import { citation } from "./cite.js";
import { addToBasket, basket } from "./storyedit.js";
import { localized, placeName, t } from "./i18n.js";
import { fold } from "./fold.js";
import { rules } from "./siterules.js";
import { refusalText } from "./refusal.js";

// REVEAL_ZOOM is the zoom "Show on the map" brings the map to, at least:
// photos there are markers of their own, not clusters. The list, which
// follows the map, keeps its rows through that move (an editor picking
// photos for a story would lose the others), until the map is moved again.
const REVEAL_ZOOM = 15;

// The default extent; the archive's own dates widen it.
const DEFAULT_EXTENT = { from: month(2012, 1), to: month(2017, 12) };
const DAYS_BELOW = 3; // months: a window this short shows its days

export class Explorer {
  constructor(root) {
    const cfg = { ...root.dataset };
    const $ = (id) => document.querySelector(`[data-testid=${id}]`);
    this.cfg = cfg;
    this.status = $("map-status");
    this.count = $("count");
    this.downloads = $("downloads");
    this.side = document.getElementById("side");
    this.handle = $("sheet-handle");
    this.selected = $("selected-card");
    this.phone = window.matchMedia("(max-width: 640px)");
    this.serverSide = Number(cfg.total) > Number(cfg.pointsLimit || 200000);
    // State: the URL's (filters, window, view, photo), the points loaded,
    // the archive's extent, the counts shown.
    this.st = readState(location.search);
    this.ready = false; // the points and the timeline are loaded
    this.points = [];
    this.extent = { ...DEFAULT_EXTENT };
    this.matching = 0;
    this.notOnMap = 0;
    this.clusterTimer = null;
    this.clusterSeq = 0;
    this.firstClusters = true;
    this.daySeq = 0;

    this.map = new PhotoMap(document.getElementById("map"), cfg, {
      onSelect: (id) => this.select(id, true),
      onSpot: (spot) => this.panel.open(spot),
      onMove: () => {
        if (!this.ready) return; // a view set from the URL, before the data is in
        this.st.view = this.map.view;
        // The reader's move is a step of history (a popup's own pan, just
        // after the step that opened it, joins that step).
        this.saveState("move");
        if (this.serverSide) this.scheduleClusters();
        if (!this.listKept) this.list.schedule();
      },
    });
    if (cfg.eventsUrl) {
      this.events = new EventLayer(this.map.map, cfg.eventsUrl, {
        onCounts: (counts) => this.timeline.setEvents(counts),
        // Turned on or off by the reader: a step of history, as a filter.
        onChange: (layer) => {
          this.st.events = layer;
          this.saveState(true);
        },
      });
    }
    if (this.st.view) this.map.setView(this.st.view);
    this.map.loadBasemap(!this.st.view).catch((err) => console.error(err));

    this.filters = new FilterForm($("filters"), {
      facetsUrl: cfg.facetsUrl,
      placesSearchUrl: cfg.placesSearchUrl,
      query: (except, extra) => filterQuery(this.st.filters, { ...this.windowQuery(), ...extra }, except),
      onChange: (f) => {
        this.st.filters = f;
        this.saveState(true);
        this.load().catch((err) => this.failed(err));
      },
      onClear: (f) => {
        this.st.filters = f;
        this.st.from = this.extent.from;
        this.st.to = this.extent.to;
        this.st.fromDay = this.st.toDay = null;
        this.setWindow();
        this.saveState(true);
        this.load().catch((err) => this.failed(err));
      },
      onWindow: (from, to) => {
        // Each edge as typed: a month, or a day kept as a day.
        let a = { m: parseMonth(from.trim()) ?? this.extent.from, d: parseDay(from.trim()) };
        let b = { m: parseMonth(to.trim(), true) ?? this.extent.to, d: parseDay(to.trim()) };
        if ((a.d ?? firstDay(a.m)) > (b.d ?? lastDay(b.m))) [a, b] = [b, a];
        this.st.fromDay = a.d;
        this.st.toDay = b.d;
        this.timeline.move(a.m, b.m, true);
      },
    });
    // A published page is the same for every address: the search in it
    // is written into its field here (a live page's comes filled in).
    if (this.st.filters.q && !this.filters.q.value) this.filters.q.value = this.st.filters.q;

    // A published page is the same for every address: its event field
    // shows the address's event, which the reader's next change keeps.
    this.filters.setEvent(this.st.filters.event);

    this.timeline = new Timeline(document.getElementById("timeline"), (from, to, final) => {
      this.st.from = from;
      this.st.to = to;
      this.keepDays();
      this.applyWindow();
      // A drag rewrites the URL when it ends, as one step of history.
      if (final) this.saveState(true);
    });

    this.panel = new SpotPanel($("spot-panel"), {
      query: (extra) => cfg.listUrl + this.query({ order: "newest", ...extra }),
      window: () => this.windowText(),
      row: (f) => row(f, cfg.placeUrl, { onSelect: (id, opts) => this.select(id, true, opts) }),
    });

    this.list = new PhotoList({
      list: $("photo-list"), scope: $("list-scope"), pager: document.querySelector("nav.pages"),
      unplaced: $("unplaced"), unplacedList: $("unplaced-list"), side: this.side,
    }, this);

    this.layout();
  }

  // start follows the keyboard, loads the photos, then follows the history.
  async start() {
    document.addEventListener("keydown", (ev) => {
      if (ev.key !== "Escape" || ev.defaultPrevented) return;
      if (!this.panel.el.hidden) this.panel.close();
      else if (this.side.classList.contains("open")) this.setSheet(false);
      else this.map.closePopup();
    });
    this.status.textContent = t("explorer.loading");
    // The events layer, as the address asks (it loads beside the photos).
    this.showEvents();
    try {
      await this.load();
      this.status.textContent = "";
    } catch (err) {
      this.failed(err); // a search in the address the server refuses
    }
    if (!this.serverSide) this.rendered(); // (else when the clusters come)
    performance.mark("syriamap:ready"); // the points and the months are in
    if (this.st.photo) this.select(this.st.photo, false);
    window.addEventListener("popstate", () => {
      const before = JSON.stringify(this.st.filters);
      this.st = readState(location.search);
      this.filters.set(this.st.filters);
      // A step with no view of its own is the map as a first visit sees it.
      if (this.st.view) this.map.setView(this.st.view);
      else this.map.home();
      if (JSON.stringify(this.st.filters) !== before) this.load();
      else {
        // The window of that step, shown everywhere it shows, not on the
        // timeline alone.
        this.setWindow();
        this.applyWindow();
      }
      this.showEvents();
      if (this.st.photo) this.select(this.st.photo, false);
    });
  }

  // showEvents shows the events layer as the state has it.
  showEvents() {
    this.events?.set(this.st.events).catch((err) => console.error(err));
  }

  // layout makes the list, the filters and a chosen photo a sheet over the
  // map on a phone.
  layout() {
    const apply = () => {
      this.handle.hidden = !this.phone.matches;
      this.side.classList.toggle("sheet", this.phone.matches);
      if (!this.phone.matches) this.side.classList.remove("open");
      this.map.invalidate();
    };
    this.phone.addEventListener("change", apply);
    apply();
    this.handle.addEventListener("click", () => this.setSheet(!this.side.classList.contains("open")));
  }

  setSheet(open) {
    this.side.classList.toggle("open", open);
    this.handle.setAttribute("aria-expanded", String(open));
  }

  // query is the API query of the filters and the window, with extra.
  query(extra) {
    return filterQuery(this.st.filters, { ...this.windowQuery(), ...extra });
  }

  // load fetches the photos and the timeline for the filters, keeping the
  // window, the view and the chosen photo.
  // Only the latest load writes: a search that finishes after the reader
  // cleared it must not overwrite what the page shows now. Work that takes
  // more than a moment says so, and the old count is marked as such.
  async load() {
    const { cfg, st } = this;
    const seq = (this.loadSeq = (this.loadSeq || 0) + 1);
    const latest = () => seq === this.loadSeq;
    const slow = setTimeout(() => {
      if (!latest()) return;
      this.status.textContent = t("explorer.loading");
      this.count.setAttribute("aria-busy", "true");
    }, 300);
    // A first visit sees the view's clusters (a few kilobytes, counted
    // where the data is) while a small archive's page reads every point,
    // which it needs to scrub the timeline without asking again.
    // The points are asked for once it is drawn: reading them holds the
    // page a while (a published site reads its data file in the fetch),
    // and the page has started fetching them already (rel=preload).
    // (A large archive's first clusters, too, need not wait for the months.)
    const interim = !this.ready && seq === 1 ? this.updateClusters().catch(() => {}) : null;
    try {
      const [pointsRes, binsRes] = await Promise.all([
        this.serverSide ? null : Promise.resolve(interim).then(() => fetch(cfg.pointsUrl + filterQuery(st.filters))),
        fetch(cfg.timelineUrl + filterQuery(st.filters, { bin: "month" })),
      ]);
      if (!latest()) return;
      if (pointsRes && !pointsRes.ok) throw await answerError(pointsRes);
      if (!binsRes.ok) throw await answerError(binsRes);
      await interim; // (a large archive's next ask is the same: not asked again)
      const points = this.serverSide ? [] : (await pointsRes.json()).points;
      const bins = (await binsRes.json()).counts || [];
      if (!latest()) return;
      this.filters.fieldError(this.filters.q, "");
      this.showLoaded(points, bins);
      this.offerPlace(seq);
    } finally {
      clearTimeout(slow);
      if (latest()) {
        this.status.textContent = "";
        this.count.removeAttribute("aria-busy");
      }
    }
  }

  // failed says why the photos could not load. A search the server
  // refuses is said beside the field, in the server's words, and nothing
  // is shown for it: no count, map, list, downloads or citation of the
  // answer before it.
  failed(err) {
    if (err.parameter !== "q") {
      this.status.textContent = t("explorer.load-failed", { why: err.message });
      return;
    }
    this.status.textContent = "";
    this.filters.fieldError(this.filters.q, refusalText(err.message), true);
    this.offer?.remove();
    this.points = [];
    this.ready = true;
    this.map.setPoints([]);
    this.map.setClusters?.([]);
    this.matching = 0;
    this.notOnMap = 0;
    this.count.textContent = t("explorer.nothing-shown");
    this.handle.textContent = t("explorer.side-count", { n: 0 });
    this.timeline.setBins(new Map(), this.extent);
    this.downloads.replaceChildren(h("p", { class: "muted", "data-testid": "downloads-none" }, t("explorer.nothing-to-download")));
    document.querySelector("[data-testid=citation]")?.remove();
    this.list.showNothing();
  }

  // offerPlace says, beside a caption search that is a place's name (in
  // any spelling: "raqqah", "الرقة"), which spellings it found as one
  // ("also spelled …"), and offers the places it may mean, each by its
  // kind and its true count — the photos placed at it and inside it (a
  // city's quarters) — the city before the governorate of its name, which
  // is offered as the governorate's filter (the photos in it, not the few
  // at its centroid). A district or subdistrict is not offered: it has no
  // filter, and its governorate's holds its photos.
  async offerPlace(seq) {
    this.offer?.remove();
    const q = this.st.filters.q;
    if (!q || !this.cfg.placesSearchUrl) return;
    const ask = (url, none) => fetch(url).then((r) => (r.ok ? r.json() : none));
    try {
      const [found, spelled] = await Promise.all([
        this.st.filters.place.length ? [] : ask(`${this.cfg.placesSearchUrl}?q=${encodeURIComponent(q)}&limit=10&with_photos=true`, []),
        ask(`${spellingsUrl(this.cfg.placesSearchUrl)}?q=${encodeURIComponent(q)}`, { places: [] }),
      ]);
      const candidates = offerOrder(found.filter((p) => p.spelling && p.kind !== "district" && p.kind !== "subdistrict"));
      let offers = [];
      if (candidates.length) {
        const count = (field) => ask(this.cfg.facetsUrl + filterQuery({ ...this.st.filters, q: "" }, { ...this.windowQuery(), field, limit: 100000 }), null);
        const [places, govs] = await Promise.all([count("place"), candidates.some((p) => p.governorate) ? count("governorate") : {}]);
        if (places && govs) offers = placeOffers(candidates, { ...places, ...govs });
      }
      if (seq !== this.loadSeq || (!offers.length && !spelled.places.length)) return;
      this.offer = h("div", { class: "place-offer wide", "data-testid": "place-offers" },
        ...spelled.places.map((sp) => this.alsoSpelled(q, sp)),
        offers.length ? h("p", {}, t("explorer.place-offer-why", { place: q.trim() }), " ", ...offers.map((o) => this.offerButton(o))) : null);
      this.filters.q.closest("label").after(this.offer);
    } catch (err) {
      console.error(err);
    }
  }

  // alsoSpelled is the note that the search found a place's spellings as
  // one: its spellings other than the one typed.
  alsoSpelled(q, sp) {
    const typed = fold(q.trim());
    const names = sp.names.filter((n) => fold(n) !== typed);
    const list = names.flatMap((n, i) => [i ? t("common.list-sep") : "", h("bdi", { dir: "auto" }, n)]);
    return h("p", { class: "muted", "data-testid": "also-spelled" }, t("explorer.also-spelled"), " ", ...list);
  }

  // offerButton is an offer: its place, kind and count; choosing it sets
  // its filter (the search is then the place's photos, not its captions).
  offerButton({ p, n, filter, names }) {
    const name = placeName(p.name, p.name_ar);
    const use = h("button", { type: "button", class: "button secondary", "data-testid": "place-offer", "data-kind": p.kind },
      t("explorer.place-offer", { place: name, kind: t(`kind.${p.kind}`), n }));
    use.addEventListener("click", () => {
      const widget = this.filters.widgets.get(filter.governorate ? "governorate" : "place");
      for (const [id, label] of names) widget?.names.set(id, label);
      // The count was of the other filters as they are (a governorate's
      // without the governorate filter, as facets count): so is the view.
      this.filters.set({ ...this.st.filters, q: "", ...filter });
      this.filters.changed();
    });
    return use;
  }

  // showLoaded puts a load's points and month counts on the page.
  showLoaded(points, bins) {
    this.points = points.map(([id, lon, lat, from, to, placement, metadata]) => ({
      id, lon, lat, from, to, placement, metadata, geometry: lon !== null,
    }));
    const counts = new Map();
    for (const b of bins) {
      const m = parseMonth(b.bin);
      if (m === null || b.bin.length !== 7) continue; // year-only bins have no month bar
      counts.set(m, b.count);
      this.extent.from = Math.min(this.extent.from, m);
      this.extent.to = Math.max(this.extent.to, m);
    }
    this.timeline.setBins(counts, this.extent);
    this.setWindow();
    this.ready = true;
    this.applyWindow();
  }

  setWindow() {
    this.timeline.set(this.st.from ?? this.extent.from, this.st.to ?? this.extent.to);
    this.st.from = this.timeline.from;
    this.st.to = this.timeline.to;
    this.keepDays();
  }

  // keepDays keeps a day typed for an edge while the edge stays in its
  // month; moving the edge to another month makes it a month again.
  keepDays() {
    const { st } = this;
    if (st.fromDay && monthOfDay(st.fromDay) !== st.from) st.fromDay = null;
    if (st.toDay && monthOfDay(st.toDay) !== st.to) st.toDay = null;
  }

  windowQuery() { return windowParams(this.st, this.extent); }
  whole() { return !this.windowQuery().from; }
  windowText() { return this.whole() ? "" : windowText(this.st); }
  // The window's first and last days as YYYYMMDD numbers.
  firstDay() { return this.st.fromDay ?? firstDay(this.st.from); }
  lastDay() { return this.st.toDay ?? lastDay(this.st.to); }

  // inWindow reports whether a loaded point is in the window: the period
  // its date covers overlaps it; undated photos only when the window is
  // everything.
  inWindow(p) {
    return p.from === 0 ? this.whole() : overlaps(p.from, p.to, this.firstDay(), this.lastDay());
  }

  // applyWindow filters the loaded points to the window and redraws.
  applyWindow() {
    if (!this.ready) return;
    const start = performance.now();
    this.filters.windowMoved();
    const w = this.windowQuery();
    this.filters.setWindow(w.from ?? "", w.to ?? "");
    this.events?.setWindow(this.whole() ? 0 : this.firstDay(), this.whole() ? 99999999 : this.lastDay());
    if (this.serverSide) {
      this.scheduleClusters();
    } else {
      // As inWindow, with the window's days worked out once.
      const lo = this.firstDay(), hi = this.lastDay(), all = this.whole();
      const shown = this.points.filter((p) => (p.from === 0 ? all : overlaps(p.from, p.to, lo, hi)));
      const placed = shown.filter((p) => p.geometry);
      this.map.setPoints(placed);
      this.showCount(shown.length, shown.length - placed.length);
    }
    this.drawDownloads();
    this.list.schedule();
    this.scheduleDays();
    // Timings for the benchmarks (and anyone's dev tools).
    performance.measure("syriamap:window", { start });
  }

  showCount(n, off) {
    this.matching = n;
    this.notOnMap = off;
    this.count.textContent = t("explorer.count", { matching: n, n: Number(this.cfg.total) }) +
      (off > 0 ? " · " + t("explorer.not-on-map", { n: off }) : "");
    this.handle.textContent = t("explorer.side-count", { n });
    // A window less than everything holds dated photos only: the
    // timeline says the same window and the same number.
    if (!this.whole()) this.timeline.showSelection(windowText(this.st), n);
  }

  // Server-side clusters for the view and window (large archives).
  scheduleClusters() {
    clearTimeout(this.clusterTimer);
    this.clusterTimer = setTimeout(() => this.updateClusters(), this.firstClusters ? 0 : 120);
  }

  // (Also a first visit's interim view of a small archive: see load. The
  // points, once drawn, are not overwritten by it.)
  async updateClusters() {
    const url = this.cfg.clustersUrl + this.query({ bbox: this.map.bbox(), zoom: Math.round(this.map.view.zoom) });
    if (url === this.clustersShown) return; // the map shows these already
    const seq = ++this.clusterSeq;
    const start = performance.now();
    const res = await fetch(url);
    if (!res.ok && seq === this.clusterSeq) {
      // A published site on a host without range requests: said on the
      // map, with where to read what to do, never a map of no photo. A
      // filter refused is the load's to say, once (failed).
      const err = await answerError(res);
      if (err.parameter && err.parameter !== "host") return;
      if (!this.warning) {
        this.warning = h("p", { class: "map-warning", role: "alert", "data-testid": "map-warning" });
        this.status.before(this.warning);
      }
      this.warning.textContent = err.parameter === "host" ? t("explorer.no-ranges") : t("explorer.load-failed", { why: err.message });
      this.count.textContent = t("explorer.count-unknown", { n: Number(this.cfg.total) });
      return;
    }
    if (!res.ok || seq !== this.clusterSeq || (this.ready && !this.serverSide)) return;
    const out = await res.json();
    if (seq !== this.clusterSeq || (this.ready && !this.serverSide)) return;
    this.map.setClusters(out.clusters);
    this.noteCoarse(out.coarse_past);
    this.clustersShown = url;
    this.showCount(out.matching, this.notOnMap);
    if (this.serverSide) performance.measure("syriamap:clusters", { start });
    this.firstClusters = false;
    this.rendered();
  }

  // noteCoarse says when the clusters drawn are coarser than the map's
  // zoom (a published site read from its overview, on a host without
  // range requests: coarse_past is the overview's deepest zoom).
  noteCoarse(past) {
    if (past === undefined && !this.coarseNote) return;
    if (!this.coarseNote) {
      this.coarseNote = h("p", { class: "map-note", role: "status", "data-testid": "map-coarse" });
      this.status.before(this.coarseNote);
    }
    this.coarseNote.hidden = past === undefined;
    if (past !== undefined) this.coarseNote.textContent = t("explorer.coarse-map", { zoom: past });
  }

  // rendered marks the first time the photos are on the map, for the
  // benchmarks (and anyone's dev tools).
  rendered() {
    if (performance.getEntriesByName("syriamap:first-render").length === 0) performance.mark("syriamap:first-render");
  }

  // The days of a short window, under the timeline.
  scheduleDays() {
    const seq = ++this.daySeq;
    const { st } = this;
    if (st.to - st.from >= DAYS_BELOW) {
      this.timeline.showDays(null);
      return;
    }
    const from = formatMonth(st.from), to = formatMonth(st.to);
    fetch(this.cfg.timelineUrl + filterQuery(st.filters, { bin: "day", from, to })).then((r) => (r.ok ? r.json() : null)).then((out) => {
      if (!out || seq !== this.daySeq) return;
      const byDay = new Map(out.counts.map((c) => [c.bin, c.count]));
      const days = [];
      for (let d = new Date(Date.UTC(Math.floor(st.from / 12), st.from % 12, 1)); d <= new Date(Date.UTC(Math.floor(st.to / 12), st.to % 12 + 1, 0)); d.setUTCDate(d.getUTCDate() + 1)) {
        const day = d.toISOString().slice(0, 10);
        days.push({ day, count: byDay.get(day) || 0 });
      }
      this.timeline.showDays(days);
    });
  }

  // The downloads: the whole selection, or what is in the map's view.
  drawDownloads() {
    const { cfg } = this;
    const sel = { download: 1 };
    const view = { ...sel, bbox: this.map.bbox() };
    const link = (url, text, id) => h("a", { class: "button secondary", href: localized(url), download: "", "data-testid": id }, text);
    const cite = h("button", { type: "button", class: "button secondary", "data-testid": "cite" }, t("explorer.cite"));
    cite.addEventListener("click", () => this.cite());
    this.downloads.replaceChildren(
      link(cfg.listUrl + this.query(sel), t("explorer.download-selection"), "download-geojson"),
      link(cfg.csvUrl + this.query(sel), "CSV", "download-csv"),
      link(cfg.listUrl + this.query(view), t("explorer.download-view"), "download-view-geojson"),
      link(cfg.csvUrl + this.query(view), "CSV", "download-view-csv"),
      cite,
    );
    // An editor may take the selection as an evidence bag (a POST: the
    // export is a custody record of each photo).
    if (cfg.evidenceUrl) {
      const fields = [...new URLSearchParams(this.query({})).entries(), ["csrf", cfg.csrf]];
      this.downloads.append(h("form", { method: "post", action: cfg.evidenceUrl, class: "inline", "data-testid": "export-evidence-selection" },
        ...fields.map(([name, value]) => h("input", { type: "hidden", name, value })),
        h("button", { type: "submit", class: "button secondary" }, t("evidence.export-selection", { format: "BagIt" }))));
    }
  }

  // cite copies a link to exactly this view with a sentence saying what
  // it shows, and shows it too (a clipboard may be refused).
  cite() {
    this.saveState(false);
    this.st.view = this.map.view;
    const url = location.origin + location.pathname + writeState(this.st, this.extent);
    const label = (facet, v) => this.filters.widgets.get(facet)?.names.get(v) || v;
    const text = citation({ count: this.matching ?? 0, filters: this.st.filters, window: this.st, events: this.st.events,
      whole: this.whole(), label, url, today: new Date().toISOString().slice(0, 10) });
    let out = document.querySelector("[data-testid=citation]");
    if (!out) {
      out = h("output", { class: "citation", "data-testid": "citation" });
      this.downloads.after(out);
    }
    out.textContent = text;
    navigator.clipboard?.writeText(text).then(() => { out.dataset.copied = "1"; }, () => {});
  }

  // saveState writes the state into the address: push makes it a step of
  // history, "move" too unless a step was made within the last second (a
  // drag and the zoom after it, a popup and its pan are one step).
  saveState(push) {
    const url = location.pathname + writeState(this.st, this.extent);
    if (url === location.pathname + location.search) return;
    const now = performance.now();
    if (push === "move") push = now - (this.pushedAt || -1e9) > 1000;
    if (push) {
      history.pushState(null, "", url);
      this.pushedAt = now;
    } else history.replaceState(null, "", url);
  }

  // select shows a photo: its popup on the map, or on a phone (and for a
  // photo not on the map) its card above the list. The page never
  // scrolls: only the list does, inside its column, to the photo's row.
  // reveal ("Show on the map") also brings the map to the photo, near
  // enough that it is its own marker, and on a phone puts the map first.
  async select(id, push, { reveal = false } = {}) {
    const { cfg, map } = this;
    this.st.photo = id;
    if (push) this.saveState(true);
    const res = await fetch(cfg.photoGeojsonUrl.replace("{id}", encodeURIComponent(id)));
    if (!res.ok) return;
    const f = await res.json();
    const c = card(f, cfg.placeUrl, { others: map.othersAt(id), onOthers: () => this.panel.open(map.spotOfPhoto(id)) });
    if (cfg.editor) {
      // An editor chooses photos for a story here; the story editor adds them.
      const chosen = basket().includes(id);
      const add = h("button", { type: "button", class: "button secondary small", "data-testid": "add-to-story" },
        chosen ? t("explorer.chosen-for-story", { n: basket().length }) : t("explorer.add-to-story"));
      add.addEventListener("click", () => { add.textContent = t("explorer.chosen-for-story", { n: addToBasket(id) }); });
      c.append(add);
    }
    if (reveal && f.geometry) {
      const [lon, lat] = f.geometry.coordinates;
      if (this.phone.matches) this.setSheet(false);
      // The list keeps its rows through this move and the popup's own pan,
      // until the reader moves the map.
      this.listKept = true;
      map.setView({ lat, lon, zoom: Math.max(map.view.zoom, REVEAL_ZOOM) });
      this.st.view = map.view;
      if (this.serverSide) this.scheduleClusters();
      this.saveState(false);
      this.list.kept();
      const el = document.getElementById("map");
      const release = () => {
        this.listKept = false;
        for (const type of ["pointerdown", "wheel", "keydown"]) el.removeEventListener(type, release);
      };
      for (const type of ["pointerdown", "wheel", "keydown"]) el.addEventListener(type, release);
    }
    if (f.geometry && (!this.phone.matches || reveal)) {
      this.selected.hidden = true;
      const [lon, lat] = f.geometry.coordinates;
      map.openPopup(c, lat, lon);
    } else {
      map.closePopup();
      const close = h("button", { type: "button", class: "button secondary", "data-testid": "selected-close" }, t("common.close"));
      close.addEventListener("click", () => { this.selected.hidden = true; });
      this.selected.replaceChildren(c, close);
      this.selected.hidden = false;
      if (this.phone.matches) {
        this.setSheet(true);
        // The card takes at most half the screen (the sheet's height);
        // the photo's marker stays in view above it.
        if (f.geometry) map.keepInView(f.geometry.coordinates[0], f.geometry.coordinates[1], this.side.getBoundingClientRect().height);
      }
      this.side.scrollTop = 0;
    }
    this.list.markCurrent();
  }
}

// answerError reads the error a response carries, the server's (or the
// published site's) own words and the parameter they are about.
async function answerError(res) {
  let body = {};
  try {
    body = await res.json();
  } catch {
    // not JSON: said by its status alone
  }
  let message = body.error || t("common.server-answered", { status: String(res.status) });
  if (body.parameter && message.startsWith(`${body.parameter}: `)) message = message.slice(body.parameter.length + 2);
  const err = new Error(message);
  err.parameter = body.parameter;
  return err;
}

// spellingsUrl is the API that says how a caption search reads place
// names (/api/search/spellings), beside place search's.
const spellingsUrl = (placesSearchUrl) => placesSearchUrl.replace(/places\/search$/, "search/spellings");

// offerOrder puts the places a search names in the order they are
// offered: a city, town, village or quarter before an area of its name
// (the governorate of Raqqa after the city), each as place search
// ranks them.
export function offerOrder(found) {
  const area = (p) => (p.kind === "governorate" || p.kind === "region" ? 1 : 0);
  return found.map((p, i) => [p, i]).sort(([a, i], [b, j]) => area(a) - area(b) || i - j).map(([p]) => p);
}

// placeOffers are the offers of the places found, counted by the facets
// (the search's other filters, without its words): a governorate's its
// filter's count; another place's the photos at it and at the places
// inside it (within), which its filter selects. A place holding none is
// not offered; three at most.
export function placeOffers(found, facets) {
  const places = new Map((facets.places || []).map((v) => [v.value, v]));
  const govs = new Map((facets.governorates || []).map((v) => [v.value, v]));
  const label = (v) => placeName(v.label, v.label_ar);
  const out = [];
  for (const p of found) {
    if (p.governorate) {
      const v = govs.get(p.governorate);
      if (v) out.push({ p, n: v.count, filter: { governorate: [p.governorate] }, names: [[p.governorate, label(v)]] });
      continue;
    }
    // A filter takes rules.max_values places: the place, then those inside
    // it with the most photos (the count is what the filter selects).
    const within = (p.within || []).filter((id) => places.has(id)).sort((a, b) => places.get(b).count - places.get(a).count);
    const held = [...(places.has(p.id) ? [p.id] : []), ...within].slice(0, rules.max_values);
    const n = held.reduce((sum, id) => sum + places.get(id).count, 0);
    if (n > 0) out.push({ p, n, filter: { place: held }, names: held.map((id) => [id, id === p.id ? placeName(p.name, p.name_ar) : label(places.get(id))]) });
  }
  return out.slice(0, 3);
}
