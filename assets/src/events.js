// The conflict events layer: UCDP GED's events as marks of their own —
// clustered, coloured by type of violence, sized by deaths — over the
// photos, in the timeline's window, with their count per month on the
// timeline. Off until the reader turns it on (it loads 16,000 events);
// events known only to their governorate or the country are counted on
// the timeline but not drawn, as a point would say more than GED knows.
// The layer is part of the view's state (events= in the address, see
// eventstate.js); a legend says what its marks mean while it is on; a
// cluster's count is drawn beside its circle where no photo mark is
// (declutter.js), never over a photo cluster's count.

import L from "leaflet";
import Supercluster from "supercluster";
import { compact, digits, localized, num, t } from "./i18n.js";
import { side } from "./map.js";
import { plain } from "./dom.js";
import { monthOfDay } from "./months.js";
import { emptyFilters, writeState } from "./state.js";
import { documentedOf, layerOf } from "./eventstate.js";
import { placeCounts } from "./declutter.js";

// The kinds of violence, as /api/events/points.json codes them (1–3).
const KINDS = ["other", "state-based", "non-state", "one-sided"];
// Drawn: GED's where_prec 1 (the place), 2 (within 25 km), 3 (a
// district, drawn hollow).
const MAX_DRAWN_PREC = 3;

// radius is an event's mark: 5 px, growing with the square root of its
// deaths to 16 px at 400.
const radius = (deaths) => Math.min(16, 5 + Math.sqrt(deaths) * 0.55);
// The legend's sizes: deaths of three marks, the last the largest drawn.
const LEGEND_DEATHS = [1, 100, 400];
// A count's badge: its height, and its width for a text of n characters
// (the style sheet's .event-count draws it at exactly this size).
const COUNT_H = 16;
const countWidth = (n) => 8 + 7 * n;
// The photo marks a count keeps off: the explorer's clusters, stacks and
// photos, and a story's clusters.
const PHOTO_MARKS = ".leaflet-marker-pane .cluster, .leaflet-marker-pane .pm";

// dayText writes a YYYYMMDD day in the reader's words.
function dayText(d) {
  return `${digits(d % 100)} ${t(`month.${Math.floor(d / 100) % 100}`)} ${digits(Math.floor(d / 10000))}`;
}

// photosOf is the explorer's address of the photos linked to GED event
// id: its filter alone (in the page's language), so that no window or
// other filter hides one of them.
function photosOf(id) {
  return writeState({ from: null, to: null, view: null, photo: null, filters: { ...emptyFilters(), event: `ucdp-ged:${id}` } }, {}) || "?";
}

export class EventLayer {
  // map is the Leaflet map; url the events' points; onCounts(counts by
  // month index, or null) when the layer is turned on or off; onChange(layer)
  // when the reader turns it on or off or changes which events it shows
  // (layer as eventstate.js writes it, "" for off). Without control (a
  // story's map) the layer has no switch, only its legend.
  constructor(map, url, { onCounts = () => {}, onChange = () => {}, control = true } = {}) {
    this.map = map;
    this.url = url;
    this.onCounts = onCounts;
    this.onChange = onChange;
    this.on = false;
    this.documented = "";
    this.group = L.layerGroup();
    this.counts = L.layerGroup();
    this.circles = [];
    this.lo = 0;
    this.hi = 99999999;
    map.on("moveend", () => this.on && this.render());
    // The photo marks redrawn (map.js, story.js): the counts move off them.
    map.on("photomarks", () => this.on && this.placeCounts());
    // Counts sit above the photo marks' pane, apart from it (never over a
    // photo mark: placeCounts).
    if (!map.getPane("eventCounts")) map.createPane("eventCounts").style.zIndex = 620;
    if (control) this.control().addTo(map);
    this.legend = this.legendControl();
  }

  // layer is the layer's state as the address writes it: "" for off.
  get layer() { return this.on ? layerOf(this.documented) : ""; }

  // set shows the layer a state asks for ("" for off), its switch with it
  // (a step of history, a story's step, a reload).
  async set(layer) {
    const documented = documentedOf(layer), changed = documented !== this.documented;
    this.documented = documented;
    if (this.box) {
      this.box.checked = Boolean(layer);
      this.which.value = documented;
      this.which.hidden = !layer;
    }
    if (Boolean(layer) !== this.on) return this.toggle(Boolean(layer));
    if (this.on && changed) this.refresh(); // (a step of the map alone changes nothing here)
  }

  // control is the layer's switch and filter, on the map's top corner.
  control() {
    const c = L.control({ position: side("topright") });
    c.onAdd = () => {
      const box = L.DomUtil.create("div", "events-control");
      box.dataset.testid = "events-control";
      const label = L.DomUtil.create("label", "", box);
      const on = L.DomUtil.create("input", "", label);
      on.type = "checkbox";
      on.dataset.testid = "events-toggle";
      // The address says whether it is on, not a form the browser refills.
      on.autocomplete = "off";
      this.box = on;
      label.append(" " + t("events.layer", { dataset: "UCDP GED" }));
      const which = L.DomUtil.create("select", "", box);
      which.dataset.testid = "events-documented";
      which.setAttribute("aria-label", t("events.which"));
      for (const [v, key] of [["", "events.all"], ["1", "events.documented"], ["0", "events.undocumented"]]) {
        const o = L.DomUtil.create("option", "", which);
        o.value = v;
        o.textContent = t(key);
      }
      which.hidden = true;
      which.autocomplete = "off";
      this.which = which;
      on.addEventListener("change", () => {
        which.hidden = !on.checked;
        this.toggle(on.checked).catch((err) => console.error(err));
        this.onChange(this.layer);
      });
      which.addEventListener("change", () => {
        this.documented = which.value;
        this.refresh();
        this.onChange(this.layer);
      });
      this.status = L.DomUtil.create("p", "events-status muted", box);
      this.status.setAttribute("role", "status");
      L.DomEvent.disableClickPropagation(box);
      return box;
    };
    return c;
  }

  async toggle(on) {
    this.on = on;
    if (!on) {
      this.group.remove();
      this.counts.remove();
      this.legend.remove();
      this.say("");
      this.onCounts(null);
      return;
    }
    if (!this.data) {
      this.say(t("events.loading"));
      this.loading = this.loading || fetch(this.url).then((res) => {
        if (!res.ok) throw new Error(`${this.url}: ${res.status}`);
        return res.json();
      });
      const data = await this.loading.finally(() => { this.loading = null; });
      this.data = this.data || data;
      if (!this.on) return; // turned off while loading
    }
    this.group.addTo(this.map);
    this.counts.addTo(this.map);
    this.legend.addTo(this.map);
    this.refresh();
  }

  // say puts text in the layer's status line (a story's layer has none).
  say(text) {
    if (this.status) this.status.textContent = text;
  }

  // setWindow shows the events whose days meet [lo, hi] (YYYYMMDD).
  setWindow(lo, hi) {
    this.lo = lo;
    this.hi = hi;
    if (this.on) this.refresh();
  }

  // refresh re-selects the events (window, documented) and redraws.
  refresh() {
    if (!this.data) return;
    const counts = new Map();
    const shown = [];
    for (const e of this.data.events) {
      const [, lon, lat, from, to, , , prec, photos] = e;
      if (this.documented === "1" && photos === 0) continue;
      if (this.documented === "0" && photos > 0) continue;
      const m = monthOfDay(from);
      counts.set(m, (counts.get(m) || 0) + 1);
      if (to < this.lo || from > this.hi || prec > MAX_DRAWN_PREC) continue;
      shown.push({ type: "Feature", properties: { e }, geometry: { type: "Point", coordinates: [lon, lat] } });
    }
    this.index = new Supercluster({ radius: 50, maxZoom: 16, map: (p) => ({ deaths: p.e[6] }), reduce: (a, p) => { a.deaths += p.deaths; } });
    this.index.load(shown);
    this.say(t("events.shown", { n: shown.length }));
    this.onCounts(counts);
    this.render();
  }

  render() {
    if (!this.index) return;
    const b = this.map.getBounds();
    const z = Math.round(this.map.getZoom());
    const marks = [];
    this.circles = [];
    for (const f of this.index.getClusters([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], z)) {
      const [lon, lat] = f.geometry.coordinates;
      if (f.properties.cluster) {
        const n = f.properties.point_count, r = clusterRadius(n);
        const m = L.circleMarker([lat, lon], { radius: r, className: "event-cluster" });
        m.bindTooltip(plain(t("events.cluster", { n, deaths: num(f.properties.deaths) })));
        m.on("click", () => this.map.setView([lat, lon], Math.min(16, this.index.getClusterExpansionZoom(f.properties.cluster_id))));
        marks.push(m);
        this.circles.push({ lat, lon, r, text: compact(n) });
        continue;
      }
      marks.push(this.mark(f.properties.e, lat, lon));
    }
    this.group.clearLayers();
    for (const m of marks) this.group.addLayer(m);
    this.placeCounts();
  }

  // placeCounts draws each cluster's count beside its circle, off the
  // photo marks drawn now and off each other (declutter.js); a count with
  // no free place is left out (its circle's tooltip says it).
  placeCounts() {
    const el = this.map.getContainer(), at = el.getBoundingClientRect();
    const photos = [...el.querySelectorAll(PHOTO_MARKS)].map((m) => {
      const r = m.getBoundingClientRect();
      return { left: r.left - at.left, top: r.top - at.top, right: r.right - at.left, bottom: r.bottom - at.top };
    });
    const circles = this.circles.map((c) => {
      const p = this.map.latLngToContainerPoint([c.lat, c.lon]);
      return { x: p.x, y: p.y, r: c.r, w: countWidth([...c.text].length), h: COUNT_H };
    });
    const boxes = placeCounts(circles, photos);
    this.counts.clearLayers();
    boxes.forEach((box, i) => {
      if (!box) return;
      const { x, y, w, h } = circles[i], c = this.circles[i];
      // The icon's anchor is the circle's centre, seen from the box's corner.
      const icon = L.divIcon({ className: "event-count", html: "", iconSize: [w, h], iconAnchor: [x - box.left, y - box.top] });
      const label = L.marker([c.lat, c.lon], { icon, interactive: false, keyboard: false, pane: "eventCounts" });
      label.on("add", () => { label.getElement().textContent = c.text; });
      this.counts.addLayer(label);
    });
  }

  // legendControl is the legend of the layer's marks: their colours (the
  // type of violence), sizes (deaths), hollow marks (an event known only
  // to its district) and clusters. It shows while the layer is on, at the
  // map's bottom left in both languages: there it lies over the sea, and
  // apart from the photos' legend (bottom right) and the layer's switch.
  legendControl() {
    const c = L.control({ position: "bottomleft" });
    c.onAdd = () => {
      const box = L.DomUtil.create("details", "legend events-legend");
      box.dataset.testid = "events-legend";
      box.open = this.map.getSize().x >= 700;
      const title = L.DomUtil.create("summary", "legend-title", box);
      title.id = `events-legend-title-${++legends}`;
      title.textContent = t("events.legend.title");
      box.setAttribute("aria-labelledby", title.id);
      const row = (swatch, text) => {
        const r = L.DomUtil.create("div", "legend-row", box);
        r.dataset.testid = "events-legend-row";
        r.append(swatch, text);
      };
      for (const kind of KINDS.slice(1)) row(swatchSVG([{ r: 6, cls: `event-mark event-${kind}` }]), t(`events.kind.${kind}`));
      row(swatchSVG(LEGEND_DEATHS.map((d) => ({ r: radius(d), cls: "event-mark event-other" }))),
        t("events.legend.size", { a: LEGEND_DEATHS[0], b: LEGEND_DEATHS[1], c: LEGEND_DEATHS[2] }));
      row(swatchSVG([{ r: 7, cls: "event-mark event-state-based event-district" }]), t("events.legend.district"));
      const cluster = swatchSVG([{ r: 9, cls: "event-cluster" }]);
      const badge = L.DomUtil.create("span", "legend-count");
      badge.textContent = compact(12);
      const both = L.DomUtil.create("span", "legend-cluster");
      both.setAttribute("aria-hidden", "true");
      both.append(cluster, badge);
      row(both, t("events.legend.cluster"));
      L.DomEvent.disableClickPropagation(box);
      return box;
    };
    return c;
  }

  // mark is one event's circle; a click opens its popup (an element,
  // built from text: nothing of the data is read as markup).
  mark(e, lat, lon) {
    const [, , , , , kind, deaths, prec] = e;
    const m = L.circleMarker([lat, lon], { radius: radius(deaths), className: `event-mark event-${KINDS[kind] || "other"}${prec === 3 ? " event-district" : ""}` });
    // Never wider than the map (a phone's is 375 px, less Leaflet's
    // margins round the content), panned clear of its edges.
    m.on("click", () => this.map.openPopup(this.popup(e), [lat, lon],
      { maxWidth: Math.min(320, this.map.getSize().x - 80), autoPanPadding: [10, 10] }));
    return m;
  }

  // popup is an event's popup: its day, type, deaths, how well its place
  // is known, its photos, and its page where there is one.
  popup(e) {
    const [id, , , from, to, kind, deaths, prec, photos] = e;
    const box = document.createElement("div");
    box.className = "event-popup";
    box.dataset.testid = "event-popup";
    const head = document.createElement("strong");
    head.textContent = `GED ${digits(id)}`;
    const when = from === to ? dayText(from) : t("events.span", { from: dayText(from), to: dayText(to) });
    const lines = [when, t(`events.kind.${KINDS[kind]}`), t("events.killed", { n: deaths }), t(`events.ucdp-ged.where.${prec}`),
      t("events.photos", { n: photos })];
    box.append(head);
    for (const line of lines) {
      const p = document.createElement("div");
      p.textContent = line;
      box.append(p);
    }
    // Its photos, a link to the explorer's list of them (live and
    // published alike: the filter of photos linked to the event).
    if (photos > 0) {
      const a = document.createElement("a");
      a.href = photosOf(id);
      a.dataset.testid = "event-photos";
      a.textContent = box.lastChild.textContent;
      box.lastChild.replaceChildren(a);
    }
    if (this.data.page) {
      const a = document.createElement("a");
      a.href = localized(this.data.page.replace("DATASET", "ucdp-ged").replace("ID", encodeURIComponent(id)));
      a.textContent = t("events.open");
      box.append(a);
    }
    const cite = document.createElement("p");
    cite.className = "muted";
    cite.textContent = t("events.cite-short", { dataset: "UCDP Georeferenced Event Dataset", licence: "CC BY 4.0" });
    box.append(cite);
    return box;
  }
}

let legends = 0;

// clusterRadius is a cluster's circle: 8 px, growing with the square root
// of its events to 22 px.
const clusterRadius = (n) => Math.min(22, 8 + Math.sqrt(n));

// swatchSVG draws circles side by side, as the map draws its marks, for
// the legend (hidden from screen readers: the row's words say it).
function swatchSVG(circles) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const h = Math.ceil(2 * Math.max(...circles.map((c) => c.r)) + 4);
  let x = 2;
  for (const c of circles) {
    const el = document.createElementNS(ns, "circle");
    el.setAttribute("cx", String(x + c.r));
    el.setAttribute("cy", String(h / 2));
    el.setAttribute("r", String(c.r));
    el.setAttribute("class", c.cls);
    svg.append(el);
    x += 2 * c.r + 3;
  }
  svg.setAttribute("width", String(Math.ceil(x)));
  svg.setAttribute("height", String(h));
  svg.setAttribute("class", "legend-swatch");
  svg.setAttribute("aria-hidden", "true");
  return svg;
}
