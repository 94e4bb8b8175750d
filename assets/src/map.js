// The map: an offline basemap (countries, governorates, rivers), the
// photos clustered with supercluster, and a popup per photo.

import L from "leaflet";
import Supercluster from "supercluster";

const placementClass = ["exact", "fallback", "low"];

export class PhotoMap {
  // el is the map's element; cfg the explorer's URLs; onSelect is called
  // with a photo id when its marker is clicked; onMove when the view
  // changes.
  constructor(el, cfg, { onSelect, onMove }) {
    this.cfg = cfg;
    this.onSelect = onSelect;
    this.map = L.map(el, { zoomSnap: 0.5, minZoom: 5, maxZoom: 17, preferCanvas: false, attributionControl: true });
    this.map.attributionControl.setPrefix(false);
    this.map.setView([35.0, 38.5], 6.5);
    if (cfg.tiles) {
      L.tileLayer(cfg.tiles, { maxZoom: 19, attribution: cfg.tilesAttribution || "" }).addTo(this.map);
    }
    this.markers = L.layerGroup().addTo(this.map);
    this.highlight = L.layerGroup().addTo(this.map);
    this.index = null;
    this.quiet = false; // moves the map makes itself are not the user's
    this.map.on("moveend", () => { this.render(); if (!this.quiet) onMove(); });
  }

  // loadBasemap draws the offline basemap; fit frames Syria, for a first
  // visit (a link's own view is kept).
  async loadBasemap(fit) {
    const syria = await drawBasemap(this.map, this.cfg.basemapUrl, !!this.cfg.tiles);
    if (fit && syria) {
      this.quiet = true;
      this.map.fitBounds(syria, { animate: false, padding: [8, 8] });
      this.quiet = false;
    }
  }

  // setPoints shows the points (objects with lon, lat, id, placement).
  setPoints(points) {
    this.points = points;
    this.index = new Supercluster({ radius: 50, maxZoom: 14 });
    this.index.load(points.map((p, i) => ({ type: "Feature", properties: { i }, geometry: p.geometry })));
    this.render();
  }

  // setClusters shows clusters the server made (/api/clusters): cells
  // with a count, and single photos as points.
  setClusters(cells) {
    this.index = null;
    this.markers.clearLayers();
    this.byId = new Map();
    for (const c of cells) {
      if (c.count > 1) {
        this.clusterMarker(c.lat, c.lon, c.count, c.count >= 1000 ? `${Math.round(c.count / 100) / 10}k` : String(c.count),
          () => this.map.flyTo([c.lat, c.lon], Math.min(this.map.getZoom() + 2, 17), { duration: 0.4 }));
      } else {
        this.pointMarker({ id: c.id, lon: c.lon, lat: c.lat, placement: c.placement });
      }
    }
  }

  clusterMarker(lat, lon, n, label, onClick) {
    const size = n < 10 ? 30 : n < 100 ? 36 : n < 1000 ? 44 : 52;
    const icon = L.divIcon({ className: "cluster", html: `<span>${label}</span>`, iconSize: [size, size] });
    const m = L.marker([lat, lon], { icon, title: `${n} photos`, keyboard: true, alt: `${n} photos` });
    m.on("click", onClick);
    m.addTo(this.markers);
  }

  pointMarker(p) {
    const cls = placementClass[p.placement] || "exact";
    const m = L.circleMarker([p.lat, p.lon], {
      radius: 7, weight: 2, className: `photo-marker ${cls}`,
      color: cls === "exact" ? "#0b5cad" : cls === "fallback" ? "#8a4b00" : "#a4262c",
      fillColor: cls === "exact" ? "#0b5cad" : "#ffffff", fillOpacity: cls === "exact" ? 0.85 : 1,
      dashArray: cls === "fallback" ? "3 3" : null,
    });
    m.on("click", () => this.onSelect(p.id));
    m.addTo(this.markers);
    m.getElement()?.setAttribute("data-id", p.id);
    this.byId.set(p.id, m);
  }

  render() {
    if (!this.index) return;
    const b = this.map.getBounds();
    const zoom = Math.round(this.map.getZoom());
    const clusters = this.index.getClusters([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], zoom);
    this.markers.clearLayers();
    this.byId = new Map();
    for (const c of clusters) {
      const [lon, lat] = c.geometry.coordinates;
      if (c.properties.cluster) {
        this.clusterMarker(lat, lon, c.properties.point_count, String(c.properties.point_count_abbreviated), () => {
          const z = Math.min(this.index.getClusterExpansionZoom(c.properties.cluster_id), 17);
          this.map.flyTo([lat, lon], z, { duration: 0.4 });
        });
      } else {
        this.pointMarker(this.points[c.properties.i]);
      }
    }
  }

  // show highlights a photo's point (from a list row) without moving.
  show(point) {
    this.highlight.clearLayers();
    if (point && point.lon !== null) {
      L.circleMarker([point.lat, point.lon], { radius: 13, weight: 3, color: "#f0a500", fill: false, interactive: false }).addTo(this.highlight);
    }
  }

  // openPopup shows the photo's details in a popup at its point.
  async openPopup(id) {
    const res = await fetch(this.cfg.photoGeojsonUrl.replace("{id}", encodeURIComponent(id)));
    if (!res.ok) return;
    const f = await res.json();
    if (!f.geometry) return;
    const [lon, lat] = f.geometry.coordinates;
    this.map.openPopup(popupContent(f.properties), [lat, lon], { maxWidth: 320, autoPanPadding: [20, 20] });
  }

  get view() {
    const c = this.map.getCenter();
    return { zoom: this.map.getZoom(), lat: c.lat, lon: c.lng };
  }

  setView(v) { this.map.setView([v.lat, v.lon], v.zoom, { animate: false }); }

  bbox() {
    const b = this.map.getBounds();
    const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));
    return [clamp(b.getWest(), -180, 180), clamp(b.getSouth(), -90, 90), clamp(b.getEast(), -180, 180), clamp(b.getNorth(), -90, 90)]
      .map((x) => x.toFixed(4)).join(",");
  }
}

// popupContent builds the popup from a photo's properties with DOM text
// nodes only: captions are never parsed as HTML.
function popupContent(p) {
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  };
  const box = el("div", "popup");
  box.dataset.testid = "popup";
  if (p.thumbnail_url) {
    const img = el("img");
    img.src = p.thumbnail_url;
    img.alt = "";
    box.append(img);
  }
  box.append(el("p", "popup-caption", p.caption));
  const meta = el("p", "meta");
  meta.append(el("span", null, [p.date, [p.photographer, p.agency].filter(Boolean).join(" / ")].filter(Boolean).join(" · ")));
  box.append(meta);
  const where = el("p", "meta");
  where.append(el("span", null, p.place_name || "Not placed"));
  const b = badge(p, true);
  where.append(el("span", `badge ${b.cls}`, b.label));
  box.append(where);
  const a = el("a", null, "Photo page");
  a.href = p.url;
  box.append(a);
  return box;
}

// drawBasemap draws the offline basemap (countries, governorates with
// labels, rivers) on map and returns Syria's bounds. Over online tiles
// the countries are outlines only.
async function drawBasemap(map, url, overTiles) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`basemap: ${res.status}`);
  const fc = await res.json();
  const byLayer = (name) => ({ type: "FeatureCollection", features: fc.features.filter((f) => f.properties.layer === name) });
  const countries = L.geoJSON(byLayer("country"), {
    interactive: false,
    style: (f) => ({ color: "#9aa3ad", weight: 1, fillColor: f.properties.name === "Syria" ? "#ffffff" : "#e7eaee", fillOpacity: overTiles ? 0 : 1 }),
  }).addTo(map).bringToBack();
  L.geoJSON(byLayer("governorate"), { interactive: false, style: { color: "#b9c0c8", weight: 1, fill: false } }).addTo(map);
  L.geoJSON(byLayer("river"), { interactive: false, style: { color: "#5b9bd5", weight: 2 } }).addTo(map);
  for (const f of byLayer("label").features) {
    const [lon, lat] = f.geometry.coordinates;
    L.marker([lat, lon], {
      interactive: false, keyboard: false,
      icon: L.divIcon({ className: "gov-label", html: "", iconSize: null }),
    }).addTo(map).getElement().textContent = f.properties.name;
  }
  if (!overTiles) map.attributionControl.addAttribution("Natural Earth · UN-OCHA");
  return countries.getLayers().find((l) => l.feature.properties.name === "Syria")?.getBounds();
}

// placeMap is the small map of a photo's or a place's page: the basemap
// and one point, from the element's data attributes.
export function placeMap(el) {
  const { basemapUrl, lon, lat, label, tiles } = el.dataset;
  const map = L.map(el, { zoomSnap: 0.5, minZoom: 4, maxZoom: 14, scrollWheelZoom: false });
  map.attributionControl.setPrefix(false);
  if (tiles) L.tileLayer(tiles, { maxZoom: 19 }).addTo(map);
  map.setView([Number(lat), Number(lon)], 8);
  drawBasemap(map, basemapUrl, !!tiles).catch((err) => console.error(err));
  L.circleMarker([Number(lat), Number(lon)], { radius: 8, weight: 2, color: "#0b5cad", fillColor: "#0b5cad", fillOpacity: 0.85 })
    .addTo(map).bindTooltip(label, { permanent: true, direction: "right", offset: [8, 0] });
}

// badge is how a photo's placement is labelled, from its GeoJSON
// properties, as the server's pages label it.
export function badge(p, placed) {
  const conf = Number(p.confidence).toFixed(2);
  if (!placed) return { cls: "none", label: "not placed" };
  if (p.precision === "corrected" || p.precision === "given") return { cls: "exact", label: p.precision };
  const cls = p.precision === "fallback" ? "fallback" : p.confidence < 0.5 ? "low" : "exact";
  return { cls, label: `${cls} · ${conf}` };
}
