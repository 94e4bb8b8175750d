// The map: an offline basemap (all the land around Syria, governorates,
// rivers, country and place names by zoom), the photos clustered with
// supercluster (or by the server, for large archives), stacked spots that
// list their photos, a scale bar and a legend. The markers are one tab
// stop, as a grid's cells are: the arrow keys go from one to the nearest
// in their direction, Enter or Space opens one, Escape goes back to the
// map (whose own arrow keys pan it), and Enter on the map goes to the
// marker nearest its centre.

import { rules } from "./siterules.js"; // the server's placement codes (internal/http/web SiteRules)
import L from "leaflet";
import { bboxOf, drawBasemap, loadBasemap, PlaceLabels, tileSwitch } from "./basemap.js";
import Supercluster from "supercluster";
import { compact, dec, digits, num, rtl, t } from "./i18n.js";
import { plain } from "./dom.js";

// side is a control's corner on the page's reading side: left and right
// swap on a right-to-left page.
export function side(pos) { return rtl ? pos.replace(/left|right/, (s) => (s === "left" ? "right" : "left")) : pos; }

// Scale is Leaflet's scale bar, its distance in the reader's words and
// digits ("100 km", "١٠٠ كم"), on the reading side.
export const Scale = L.Control.Scale.extend({
  _updateScale(scale, text, ratio) {
    const [n, unit] = text.split(" ");
    scale.style.width = `${Math.round(this.options.maxWidth * ratio)}px`;
    scale.textContent = t(unit === "km" ? "map.km" : "map.m", { n: Number(n) });
  },
});

// zoomControl is Leaflet's zoom buttons in the reader's words, on the
// reading side.
export function zoomControl() {
  return L.control.zoom({ position: side("topleft"), zoomInTitle: t("map.zoom-in"), zoomOutTitle: t("map.zoom-out") });
}

// The placement codes of /api/points, and how each is drawn and named in
// the legend.
const placementClass = rules.placement_classes;
const legendItems = [
  ["exact", "legend.exact"],
  ["fallback", "legend.fallback"],
  ["corrected", "legend.corrected"],
  ["low", "legend.low"],
  ["exact meta-disagrees", "legend.meta-disagrees"],
  ["exact meta-reused", "legend.meta-reused"],
];

// metaClass marks a photo by how its image file's metadata agrees with
// its caption (the metadata codes of /api/points).
// 3: the same frame as another photo's, under a caption that disagrees.
const metaClass = ["", " meta-near", " meta-disagrees", " meta-reused"];

// Clusters are at most 52 px across and are 60 px apart at least: they
// never overlap. From zoom listZoom a cluster's click lists its photos
// rather than zooming further: they are close to a point by then.
const CLUSTER_RADIUS = 60;
// A single photo's marker is 16 px on a wide screen and 24 px on a
// phone's, where a finger, not a pointer, must hit it (WCAG 2.5.8).
const PHOTO_SIZE = globalThis.matchMedia?.("(max-width: 640px)").matches ? 24 : 16, SPOT_SIZE = 26, GAP = 2;
const MAX_ZOOM = 17;
const LIST_ZOOM = 15;

export class PhotoMap {
  // el is the map's element; cfg the explorer's URLs; handlers: onSelect(id)
  // when a photo's marker is opened, onSpot({title, bbox, count}) when a
  // stack of photos is, onMove() when the view changes.
  constructor(el, cfg, handlers) {
    this.cfg = cfg;
    this.handlers = handlers;
    this.map = L.map(el, { zoomSnap: 0.5, minZoom: 4, maxZoom: MAX_ZOOM, keyboard: true, attributionControl: true, zoomControl: false });
    this.map.attributionControl.setPrefix(false);
    this.map.setView([35.0, 38.5], 6.5);
    el.dataset.zoom = "6.5"; // kept up to date on zoomend, below
    // The controls sit where a reader of the page's direction looks first.
    zoomControl().addTo(this.map);
    new Scale({ imperial: false, maxWidth: 140, position: "bottomleft" }).addTo(this.map); // the legend has the right
    this.legend().addTo(this.map);
    this.offline = L.layerGroup().addTo(this.map);
    // The user chooses: the offline map, or the online tiles under it.
    if (cfg.tiles) tileSwitch(this.map, cfg.tiles, cfg.tilesAttribution || "", (filled) => this.drawOffline(filled));
    // Place names go beside the markers, never under them.
    this.placeLabels = new PlaceLabels(this.map, cfg.labelsUrl, () => this.markerBoxes());
    this.markers = L.layerGroup().addTo(this.map);
    this.highlight = L.layerGroup().addTo(this.map);
    this.index = null;
    this.quiet = false; // moves the map makes itself are not the user's
    this.map.on("moveend", () => {
      this.render();
      if (!this.quiet) handlers.onMove();
    });
    this.map.on("zoomend", () => el.dataset.zoom = String(this.map.getZoom()));
    el.addEventListener("keydown", (ev) => {
      if (ev.target !== el || ev.key !== "Enter") return;
      const m = this.nearest(this.map.getSize().divideBy(2));
      if (!m) return;
      ev.preventDefault();
      m.getElement().focus();
    });
    // The marker last focused is the one Tab comes back to.
    el.addEventListener("focusin", (ev) => {
      const m = this.markerOf(ev.target);
      if (m) this.rove(m);
    });
  }

  // markerBoxes are the markers' circles in the container's pixels.
  markerBoxes() {
    return this.markers.getLayers().map((m) => {
      const p = this.map.latLngToContainerPoint(m.getLatLng());
      return { x: p.x, y: p.y, r: (m.options.icon.options.iconSize?.[0] || PHOTO_SIZE) / 2 };
    });
  }

  // markerOf is the marker whose element el is, or null.
  markerOf(el) {
    return this.markers.getLayers().find((m) => m.getElement() === el) || null;
  }

  // rove makes m (or the marker where the last one was, or the one
  // nearest the centre) the markers' one tab stop.
  rove(m) {
    const all = this.markers.getLayers();
    if (m) this.current = m.getLatLng();
    m = m || (this.current && all.find((x) => x.getLatLng().equals(this.current))) || this.nearest(this.map.getSize().divideBy(2));
    for (const x of all) x.getElement()?.setAttribute("tabindex", x === m ? "0" : "-1");
  }

  // nearest is the marker nearest a point of the map's container, among
  // those in the view.
  nearest(at) {
    let best = null, dist = Infinity;
    const size = this.map.getSize();
    for (const m of this.markers.getLayers()) {
      const p = this.map.latLngToContainerPoint(m.getLatLng());
      if (p.x < 0 || p.y < 0 || p.x > size.x || p.y > size.y) continue;
      const d = p.distanceTo(at);
      if (d < dist) [best, dist] = [m, d];
    }
    return best;
  }

  // next is the marker an arrow key goes to from m: the nearest in that
  // direction, a step across it counting twice a step along it, so that
  // the right arrow prefers the marker to the right over one far below.
  next(m, key) {
    const dir = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[key];
    const from = this.map.latLngToContainerPoint(m.getLatLng());
    let best = null, score = Infinity;
    for (const x of this.markers.getLayers()) {
      if (x === m) continue;
      const p = this.map.latLngToContainerPoint(x.getLatLng());
      const along = (p.x - from.x) * dir[0] + (p.y - from.y) * dir[1];
      const across = Math.abs((p.x - from.x) * dir[1] - (p.y - from.y) * dir[0]);
      if (along <= 0) continue;
      if (along + 2 * across < score) [best, score] = [x, along + 2 * across];
    }
    return best;
  }

  // The legend sits at the map's bottom right in both languages: the
  // map's geography does not mirror, and there it lies over Syria's empty
  // east, not over Damascus and Daraa (as on the left).
  legend() {
    const c = L.control({ position: "bottomright" });
    c.onAdd = () => {
      // Open where the map has room for it; a click folds it away.
      const box = L.DomUtil.create("details", "legend");
      box.dataset.testid = "legend";
      box.open = this.map.getSize().x >= 700;
      const title = L.DomUtil.create("summary", "legend-title", box);
      title.textContent = t("legend.title");
      for (const [cls, key] of legendItems) {
        const row = L.DomUtil.create("div", "legend-row", box);
        L.DomUtil.create("span", `pm ${cls}`, row);
        row.append(t(key));
      }
      const row = L.DomUtil.create("div", "legend-row", box);
      const n = L.DomUtil.create("span", "cluster-swatch", row);
      n.textContent = digits("12");
      row.append(t("legend.clusters"));
      L.DomEvent.disableClickPropagation(box);
      this.legendBox = box;
      return box;
    };
    return c;
  }

  // home frames Syria, as a first visit sees the map; a move the map makes
  // itself, not the reader's.
  home() {
    if (!this.syria) return;
    this.quiet = true;
    this.map.fitBounds(this.syria, { animate: false, padding: [8, 8] });
    this.quiet = false;
  }

  // loadBasemap draws the offline basemap; fit frames Syria, for a first
  // visit (a link's own view is kept).
  async loadBasemap(fit) {
    const res = await fetch(this.cfg.basemapUrl);
    if (!res.ok) throw new Error(`basemap: ${res.status}`);
    this.basemap = await res.json();
    const syria = this.drawOffline(true);
    this.syria = syria;
    if (fit) this.home();
    this.placeLabels.schedule();
  }

  // drawOffline draws the basemap, filled or, over online tiles, as
  // outlines; it returns Syria's bounds.
  drawOffline(filled) {
    this.offline.clearLayers();
    this.map.getContainer().classList.toggle("over-tiles", !filled);
    return this.basemap ? drawBasemap(this.map, this.offline, this.basemap, filled) : null;
  }

  // setPoints shows the points (objects with lon, lat, id, placement):
  // photos at one point are one spot with a count, and spots are
  // clustered.
  setPoints(points) {
    const spots = new Map();
    for (const p of points) {
      const key = `${p.lon},${p.lat}`;
      let s = spots.get(key);
      if (!s) spots.set(key, (s = { lon: p.lon, lat: p.lat, ids: [], placement: p.placement, metadata: 0 }));
      s.metadata = Math.max(s.metadata, p.metadata || 0);
      s.ids.push(p.id);
    }
    this.spots = [...spots.values()];
    this.spotOf = new Map();
    for (const s of this.spots) for (const id of s.ids) this.spotOf.set(id, s);
    this.index = new Supercluster({
      radius: CLUSTER_RADIUS, maxZoom: MAX_ZOOM - 1,
      map: (props) => ({ n: props.n }),
      reduce: (acc, props) => { acc.n += props.n; },
    });
    this.index.load(this.spots.map((s, i) => ({ type: "Feature", properties: { i, n: s.ids.length }, geometry: { type: "Point", coordinates: [s.lon, s.lat] } })));
    this.render();
  }

  // othersAt counts the other photos shown at a photo's point.
  othersAt(id) {
    const s = this.spotOf?.get(id);
    return s ? s.ids.length - 1 : 0;
  }

  // spotOfPhoto is the stack a photo is in, as onSpot takes it.
  spotOfPhoto(id) {
    const s = this.spotOf?.get(id);
    return s ? this.spotRequest([s], s.ids.length) : null;
  }

  // setClusters shows clusters the server made (/api/clusters): cells
  // with a count and a bbox, and single photos as points.
  setClusters(cells) {
    this.index = null;
    this.spots = null;
    this.spotOf = null;
    this.keepingFocus(() => this.drawCells(cells));
  }

  drawCells(cells) {
    // A cell of one photo is drawn as that photo when it names it (a
    // published site's tiles may count one photo in the window of a cell
    // of several, and then know only the cell).
    this.drawMarks(cells.map((c) => (c.count > 1 || !c.id
      ? { lat: c.lat, lon: c.lon, n: c.count, bbox: c.bbox }
      : { lat: c.lat, lon: c.lon, n: 1, photo: { id: c.id, lon: c.lon, lat: c.lat, placement: c.placement, metadata: c.metadata } })));
  }

  render() {
    if (this.index) this.keepingFocus(() => this.draw());
  }

  // keepingFocus runs redraw, which replaces the markers, and gives focus
  // back to the new marker of the photo, or at the point, that had it:
  // a keyboard user stays where they were, not at the top of the page.
  keepingFocus(redraw) {
    const had = this.markers.getLayers().find((m) => m.getElement() && m.getElement() === document.activeElement);
    const id = had?.getElement().dataset.id, at = had?.getLatLng();
    redraw();
    this.rove(null);
    if (!had) return;
    const now = (id && this.byId.get(id)) || this.markers.getLayers().find((m) => m.getLatLng().equals(at));
    (now?.getElement() || this.map.getContainer()).focus({ preventScroll: true });
  }

  // draw shows the clusters of the view.
  draw() {
    const b = this.map.getBounds();
    const zoom = Math.round(this.map.getZoom());
    const clusters = this.index.getClusters([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], zoom);
    this.drawMarks(clusters.map((c) => {
      const [lon, lat] = c.geometry.coordinates;
      if (c.properties.cluster) return { lat, lon, n: c.properties.n, cluster: c.properties.cluster_id };
      const s = this.spots[c.properties.i];
      return s.ids.length > 1 ? { lat, lon, n: s.ids.length, spot: s }
        : { lat, lon, n: 1, spot: s, photo: { id: s.ids[0], lon, lat, placement: s.placement, metadata: s.metadata } };
    }));
  }

  // drawMarks draws marks — clusters (a supercluster id or a server
  // cell's bbox), stacks of photos at a spot, single photos — after
  // merging those whose markers would overlap, so none hides another.
  drawMarks(marks) {
    this.markers.clearLayers();
    this.byId = new Map();
    for (const m of separate(this.map, marks)) {
      if (m.photo) this.photoMarker(m.photo);
      else if (m.spot && !m.parts) this.spotMarker(m.spot);
      else this.clusterMarker(m.lat, m.lon, m.n, () => this.openMark(m));
    }
    this.placeLabels.layoutSoon();
    // The events layer's counts move off the marks (events.js).
    this.map.fire("photomarks");
  }

  // openMark opens a cluster: close in, it lists the photos; further out
  // the map zooms to it.
  openMark(m) {
    const parts = m.parts || [m];
    const zoom = this.map.getZoom();
    if (parts.length === 1 && m.cluster !== undefined && this.index) {
      const z = this.index.getClusterExpansionZoom(m.cluster);
      if (z <= MAX_ZOOM && zoom < LIST_ZOOM) {
        this.map.flyTo([m.lat, m.lon], z, { duration: 0.4 });
        return;
      }
    }
    if (zoom >= LIST_ZOOM) {
      if (this.index) {
        const spots = parts.flatMap((p) => (p.cluster !== undefined ? this.index.getLeaves(p.cluster, Infinity).map((l) => this.spots[l.properties.i]) : [p.spot]));
        this.handlers.onSpot(this.spotRequest(spots, m.n));
      } else {
        const boxes = parts.map((p) => p.bbox || [p.lon, p.lat, p.lon, p.lat]);
        const bbox = [0, 1, 2, 3].map((k) => (k < 2 ? Math.min : Math.max)(...boxes.map((b) => b[k])));
        this.handlers.onSpot({ bbox: bbox.join(","), count: m.n, at: [m.lat, m.lon] });
      }
      return;
    }
    const bounds = L.latLngBounds(parts.map((p) => [p.lat, p.lon]));
    const z = Math.min(MAX_ZOOM, Math.max(zoom + 2, this.map.getBoundsZoom(bounds.pad(0.5))));
    this.map.flyTo(bounds.getCenter(), z, { duration: 0.4 });
  }

  // spotRequest is what onSpot needs to list the photos of spots.
  spotRequest(spots, count) {
    const e = 1e-5;
    const lons = spots.map((s) => s.lon), lats = spots.map((s) => s.lat);
    const bbox = [Math.min(...lons) - e, Math.min(...lats) - e, Math.max(...lons) + e, Math.max(...lats) + e].map((x) => x.toFixed(6)).join(",");
    return { bbox, count, at: [spots[0].lat, spots[0].lon] };
  }

  clusterMarker(lat, lon, n, onOpen) {
    const size = markSize(n, true);
    const tier = n < 10 ? "few" : n < 100 ? "some" : n < 1000 ? "many" : "most";
    const label = compact(n);
    const icon = L.divIcon({ className: `cluster ${tier}`, html: `<span>${label}</span>`, iconSize: [size, size] });
    this.focusable(L.marker([lat, lon], { icon, title: t("common.photos", { n }), alt: t("common.photos", { n }), keyboard: true, riseOnHover: true }), onOpen)
      .addTo(this.markers);
  }

  // spotMarker is several photos at one point: a marker with their count.
  spotMarker(s) {
    const cls = placementClass[s.placement] || "exact";
    const icon = L.divIcon({ className: `pm spot ${cls}${metaClass[s.metadata] || ""}`, html: `<span>${compact(s.ids.length)}</span>`, iconSize: [SPOT_SIZE, SPOT_SIZE] });
    const m = this.focusable(L.marker([s.lat, s.lon], { icon, title: t("map.spot-title", { n: s.ids.length }), alt: t("map.spot-alt", { n: s.ids.length }), keyboard: true }),
      () => this.handlers.onSpot(this.spotRequest([s], s.ids.length)));
    m.addTo(this.markers);
    for (const id of s.ids) this.byId.set(id, m);
  }

  photoMarker(p) {
    const cls = placementClass[p.placement] || "exact";
    const meta = metaClass[p.metadata] || "";
    const icon = L.divIcon({ className: `pm ${cls}${meta}`, html: "", iconSize: [PHOTO_SIZE, PHOTO_SIZE] });
    const note = p.metadata === 2 ? t("map.photo-meta-note") : p.metadata === 3 ? t("map.photo-reused-note") : "";
    const m = this.focusable(L.marker([p.lat, p.lon], { icon, title: t("map.photo-title") + note, alt: t("map.photo-alt", { placement: t(`placement.${cls}`), note }), keyboard: true }),
      () => this.handlers.onSelect(p.id));
    m.addTo(this.markers);
    m.getElement()?.setAttribute("data-id", p.id);
    this.byId.set(p.id, m);
  }

  // focusable makes a marker open with a click, Enter or Space, and go on
  // to its neighbours by the arrow keys; only one marker is a tab stop.
  focusable(m, onOpen) {
    m.on("click", onOpen);
    m.on("add", () => {
      const el = m.getElement();
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "-1");
      el.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          ev.stopPropagation();
          onOpen();
        } else if (ev.key.startsWith("Arrow")) {
          ev.preventDefault();
          ev.stopPropagation();
          this.next(m, ev.key)?.getElement().focus();
        } else if (ev.key === "Escape" && !this.map.getContainer().querySelector(".leaflet-popup")) {
          ev.preventDefault();
          this.map.getContainer().focus({ preventScroll: true });
        }
      });
    });
    return m;
  }

  // show highlights a photo's point (from a list row) without moving.
  show(point) {
    this.highlight.clearLayers();
    if (point && point.lon !== null) {
      L.circleMarker([point.lat, point.lon], { radius: 14, weight: 3, color: "#c27c00", fill: false, interactive: false }).addTo(this.highlight);
    }
  }

  // openPopup shows content (an element) at a point.
  // The map pans it clear of the legend, in the bottom right corner.
  // When it closes, focus that was in it (its close button) goes back to
  // what opened it — the same photo's marker, drawn again if the map
  // moved meanwhile — or to the map if that is gone, not to the page's top.
  openPopup(content, lat, lon) {
    const opener = document.activeElement, seq = (this.popups = (this.popups || 0) + 1);
    const openerID = opener?.dataset?.id;
    const lg = this.legendBox ? this.legendBox.getBoundingClientRect() : { width: 0, height: 0 };
    // The legend is in the bottom right corner.
    const legendPad = [Math.round(lg.width) + 20, Math.round(lg.height) + 20];
    // On a phone the card takes at most half the map, scrolling within,
    // so the map and the photo's marker stay in view.
    const phone = window.matchMedia("(max-width: 640px)").matches;
    const maxHeight = phone ? Math.max(160, Math.round(this.map.getSize().y / 2)) : undefined;
    this.map.openPopup(content, [lat, lon], { maxWidth: 320, maxHeight,
      autoPanPaddingTopLeft: [20, 20], autoPanPaddingBottomRight: legendPad });
    // Leaflet names its close button in English.
    this.map.getContainer().querySelector(".leaflet-popup-close-button")?.setAttribute("aria-label", t("map.close-popup"));
    this.map.once("popupclose", (ev) => requestAnimationFrame(() => {
      const at = document.activeElement, closing = ev.popup.getElement(); // removed after its fade
      const lost = at === document.body || !document.contains(at) || (closing && closing.contains(at));
      if (!lost || seq !== this.popups) return; // focus moved on, or another popup opened
      const redrawn = openerID && this.map.getContainer().querySelector(`.leaflet-marker-pane [data-id="${CSS.escape(openerID)}"]`);
      const back = opener && opener !== document.body && document.contains(opener) ? opener : redrawn || this.map.getContainer();
      back.focus({ preventScroll: true });
    }));
  }

  closePopup() { this.map.closePopup(); }

  get view() {
    const c = this.map.getCenter();
    return { zoom: this.map.getZoom(), lat: c.lat, lon: c.lng };
  }

  // setView shows a view the page asked for (a link's, a step back in
  // history): the map's own move, not the reader's.
  setView(v) {
    this.quiet = true;
    this.map.setView([v.lat, v.lon], v.zoom, { animate: false });
    this.quiet = false;
  }

  // keepInView pans the map, if need be, so that a point is in view above
  // a sheet bottom pixels high that covers the map's foot.
  keepInView(lon, lat, bottom) {
    const size = this.map.getSize();
    const covered = Math.max(0, Math.min(size.y - 40, bottom - (window.innerHeight - this.map.getContainer().getBoundingClientRect().bottom)));
    this.quiet = true;
    this.map.panInside([lat, lon], { paddingTopLeft: [24, 24], paddingBottomRight: [24, covered + 24], animate: false });
    this.quiet = false;
  }

  // contains reports whether the view shows a point.
  contains(lon, lat) { return this.map.getBounds().contains([lat, lon]); }

  // bbox is the view as minLon,minLat,maxLon,maxLat, widened by pad (a
  // share of its size).
  bbox(pad = 0) { return bboxOf(this.map, pad); }

  invalidate() { this.map.invalidateSize(); }
}

// markSize is a marker's diameter in pixels: a cluster's grows with its
// count; a stack at one spot and a single photo are smaller.
function markSize(n, cluster) {
  if (!cluster) return n > 1 ? SPOT_SIZE : PHOTO_SIZE;
  return n < 10 ? 32 : n < 100 ? 38 : n < 1000 ? 46 : 52;
}

// separate merges marks whose markers would overlap into one cluster
// (with parts, its count their sum, at their weighted centre), the
// largest first, until none overlaps another: clusters' centres are
// their photos' mean, which can fall closer than the clustering radius.
export function separate(map, marks) {
  const out = marks.map((m) => ({ ...m, p: map.latLngToContainerPoint([m.lat, m.lon]) }));
  const r = (m) => markSize(m.n, m.n > 1 && (m.parts || !m.spot)) / 2;
  for (let merged = true; merged;) {
    merged = false;
    out.sort((a, b) => b.n - a.n);
    for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i], b = out[j];
        if (a.p.distanceTo(b.p) >= r(a) + r(b) + GAP) continue;
        const n = a.n + b.n;
        const lat = (a.lat * a.n + b.lat * b.n) / n, lon = (a.lon * a.n + b.lon * b.n) / n;
        out[i] = { lat, lon, n, parts: [...(a.parts || [a]), ...(b.parts || [b])], p: map.latLngToContainerPoint([lat, lon]) };
        out.splice(j, 1);
        merged = true;
        j = i; // the merged mark is larger: look again from the start
      }
    }
  }
  return out;
}

// placeMap is the small map of a photo's or a place's page: the basemap
// and one point, from the element's data attributes.
export function placeMap(el) {
  const { basemapUrl, labelsUrl, lon, lat, label, tiles } = el.dataset;
  const map = L.map(el, { zoomSnap: 0.5, minZoom: 4, maxZoom: 14, scrollWheelZoom: false, zoomControl: false });
  zoomControl().addTo(map);
  map.attributionControl.setPrefix(false);
  map.setView([Number(lat), Number(lon)], 8);
  new Scale({ imperial: false, position: side("bottomleft") }).addTo(map);
  loadBasemap(map, basemapUrl, tiles).catch((err) => console.error(err));
  if (labelsUrl) new PlaceLabels(map, labelsUrl).schedule();
  L.circleMarker([Number(lat), Number(lon)], { radius: 8, weight: 2, color: "#0b5cad", fillColor: "#0b5cad", fillOpacity: 0.85 })
    .addTo(map).bindTooltip(plain(label), { permanent: true, direction: rtl ? "left" : "right", offset: [rtl ? -8 : 8, 0] });
  // The camera's GPS point, where it may be shown, beside the place: the
  // evidence side by side.
  const gps = gpsPoint(map, el.dataset, [Number(lat), Number(lon)], label);
  if (gps) map.fitBounds(L.latLngBounds([[Number(lat), Number(lon)], gps]), { padding: [40, 40], maxZoom: 12 });
}

// gpsPoint draws the camera's GPS point (data-gps-lon, data-gps-lat), where
// it may be shown, with its distance from the caption's place at placeAt:
// the evidence side by side. It returns the point, or null.
export function gpsPoint(map, { gpsLon, gpsLat }, placeAt, placeName) {
  if (!gpsLon || !gpsLat) return null;
  const gps = [Number(gpsLat), Number(gpsLon)];
  const km = placeAt ? map.distance(placeAt, gps) / 1000 : null;
  const far = km === null ? "" : t("map.gps-far", { km: dec(km, km < 10 ? 1 : 0), place: placeName || t("map.the-place") });
  L.circleMarker(gps, { radius: 7, weight: 2, color: "#b3541e", fillColor: "#fff", fillOpacity: 1 })
    .addTo(map).bindTooltip(plain(t("map.gps") + far), { permanent: true, direction: "auto", offset: [8, 0], className: "gps-tip" });
  if (placeAt) L.polyline([placeAt, gps], { color: "#b3541e", weight: 1.5, dashArray: "4 4", interactive: false }).addTo(map);
  return gps;
}
