// The conflict events layer: UCDP GED's events as marks of their own —
// clustered, coloured by type of violence, sized by deaths — over the
// photos, in the timeline's window, with their count per month on the
// timeline. Off until the reader turns it on (it loads 16,000 events);
// events known only to their governorate or the country are counted on
// the timeline but not drawn, as a point would say more than GED knows.

import L from "leaflet";
import Supercluster from "supercluster";
import { compact, digits, num, t } from "./i18n.js";
import { side } from "./map.js";
import { plain } from "./dom.js";
import { monthOfDay } from "./months.js";

// The kinds of violence, as /api/events/points.json codes them (1–3).
const KINDS = ["other", "state-based", "non-state", "one-sided"];
// Drawn: GED's where_prec 1 (the place), 2 (within 25 km), 3 (a
// district, drawn hollow).
const MAX_DRAWN_PREC = 3;

// radius is an event's mark: 5 px, growing with the square root of its
// deaths to 16 px at 400.
const radius = (deaths) => Math.min(16, 5 + Math.sqrt(deaths) * 0.55);

// dayText writes a YYYYMMDD day in the reader's words.
function dayText(d) {
  return `${digits(d % 100)} ${t(`month.${Math.floor(d / 100) % 100}`)} ${digits(Math.floor(d / 10000))}`;
}

export class EventLayer {
  // map is the Leaflet map; url the events' points; onCounts(counts by
  // month index, or null) when the layer is turned on or off.
  constructor(map, url, onCounts) {
    this.map = map;
    this.url = url;
    this.onCounts = onCounts;
    this.on = false;
    this.documented = "";
    this.group = L.layerGroup();
    this.lo = 0;
    this.hi = 99999999;
    map.on("moveend", () => this.on && this.render());
    this.control().addTo(map);
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
      on.addEventListener("change", () => { which.hidden = !on.checked; this.toggle(on.checked).catch((err) => console.error(err)); });
      which.addEventListener("change", () => { this.documented = which.value; this.refresh(); });
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
      this.status.textContent = "";
      this.onCounts(null);
      return;
    }
    if (!this.data) {
      this.status.textContent = t("events.loading");
      const res = await fetch(this.url);
      if (!res.ok) throw new Error(`${this.url}: ${res.status}`);
      this.data = await res.json();
    }
    this.group.addTo(this.map);
    this.refresh();
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
    this.status.textContent = t("events.shown", { n: shown.length });
    this.onCounts(counts);
    this.render();
  }

  render() {
    if (!this.index) return;
    const b = this.map.getBounds();
    const z = Math.round(this.map.getZoom());
    const marks = [];
    for (const f of this.index.getClusters([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], z)) {
      const [lon, lat] = f.geometry.coordinates;
      if (f.properties.cluster) {
        const n = f.properties.point_count;
        const m = L.circleMarker([lat, lon], { radius: Math.min(22, 8 + Math.sqrt(n)), className: "event-cluster" });
        m.bindTooltip(plain(t("events.cluster", { n, deaths: num(f.properties.deaths) })));
        m.on("click", () => this.map.setView([lat, lon], Math.min(16, this.index.getClusterExpansionZoom(f.properties.cluster_id))));
        marks.push(m);
        const label = L.marker([lat, lon], { interactive: false, keyboard: false,
          icon: L.divIcon({ className: "event-count", html: "", iconSize: [24, 14] }) });
        label.on("add", () => { label.getElement().textContent = compact(n); });
        marks.push(label);
        continue;
      }
      marks.push(this.mark(f.properties.e, lat, lon));
    }
    this.group.clearLayers();
    for (const m of marks) this.group.addLayer(m);
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
    if (this.data.page) {
      const a = document.createElement("a");
      a.href = this.data.page.replace("DATASET", "ucdp-ged").replace("ID", encodeURIComponent(id));
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
