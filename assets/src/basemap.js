// The offline basemap every map draws — land, borders, rivers, country
// and governorate names (/api/basemap) — and the gazetteer's place names
// by zoom (/api/labels), so that the photo, place and review maps can be
// read and aimed as the explorer's can.

import L from "leaflet";

// bboxOf is a map's view as minLon,minLat,maxLon,maxLat, widened by pad
// (a share of its size) and kept on the globe.
export function bboxOf(map, pad = 0) {
  const b = pad ? map.getBounds().pad(pad) : map.getBounds();
  const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));
  return [clamp(b.getWest(), -180, 180), clamp(b.getSouth(), -90, 90), clamp(b.getEast(), -180, 180), clamp(b.getNorth(), -90, 90)]
    .map((x) => x.toFixed(4)).join(",");
}

// labelsPane is the pane names go in: over the basemap and rivers, under
// the markers, and never in the way of a click.
function labelsPane(map) {
  if (!map.getPane("labels")) {
    const pane = map.createPane("labels");
    pane.style.zIndex = 450;
    pane.style.pointerEvents = "none";
  }
  return "labels";
}

// drawBasemap draws fc, the basemap's features, into group; filled false
// draws outlines only, over online tiles. It returns Syria's bounds.
export function drawBasemap(map, group, fc, filled = true) {
  const layer = (name) => ({ type: "FeatureCollection", features: fc.features.filter((f) => f.properties.layer === name) });
  const countries = L.geoJSON(layer("country"), {
    interactive: false,
    style: (f) => ({ color: "#7d8791", weight: 1, fillColor: f.properties.name === "Syria" ? "#fbfaf7" : "#e6e1d6", fillOpacity: filled ? 1 : 0 }),
  }).addTo(group);
  L.geoJSON(layer("governorate"), { interactive: false, style: { color: "#a7adb4", weight: 1, fill: false } }).addTo(group);
  L.geoJSON(layer("river"), { interactive: false, style: { color: "#4d8cc4", weight: 2 } }).addTo(group);
  const pane = labelsPane(map);
  for (const [name, cls] of [["country-label", "country-label"], ["label", "gov-label"]]) {
    for (const f of layer(name).features) {
      const [lon, lat] = f.geometry.coordinates;
      L.marker([lat, lon], { interactive: false, keyboard: false, pane, icon: L.divIcon({ className: cls, html: "", iconSize: null }) })
        .addTo(group).getElement().textContent = f.properties.name;
    }
  }
  map.attributionControl?.addAttribution("Natural Earth · UN-OCHA · GeoNames");
  return countries.getLayers().find((l) => l.feature.properties.name === "Syria")?.getBounds();
}

// loadBasemap fetches the basemap at url and draws it on map, under
// whatever the map shows already.
export async function loadBasemap(map, url, filled = true) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`basemap: ${res.status}`);
  const group = L.layerGroup().addTo(map);
  drawBasemap(map, group, await res.json(), filled);
  group.eachLayer((l) => l.bringToBack?.());
  return group;
}

// PlaceLabels names the gazetteer's places on a map by zoom (cities
// first, villages and quarters close in), the most prominent first and
// none over another, redrawn when the view settles.
export class PlaceLabels {
  constructor(map, url) {
    this.map = map;
    this.url = url;
    this.group = L.layerGroup().addTo(map);
    this.timer = null;
    this.seq = 0;
    map.on("moveend", () => this.schedule());
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.draw(), 150);
  }

  async draw() {
    const map = this.map, zoom = Math.floor(map.getZoom()), seq = ++this.seq;
    const res = await fetch(`${this.url}?bbox=${bboxOf(map, 0.1)}&zoom=${zoom}`);
    if (!res.ok || seq !== this.seq) return;
    const fc = await res.json();
    this.group.clearLayers();
    const taken = [], size = map.getSize(), pane = labelsPane(map);
    for (const f of fc.features) {
      const [lon, lat] = f.geometry.coordinates;
      const pt = map.latLngToContainerPoint([lat, lon]);
      const big = f.properties.kind === "city";
      const w = f.properties.name.length * (big ? 7.5 : 6.5) + 8, hgt = big ? 16 : 14;
      const box = { x0: pt.x + 4, y0: pt.y - hgt / 2, x1: pt.x + 4 + w, y1: pt.y + hgt / 2 };
      if (box.x1 < 0 || box.x0 > size.x || box.y1 < 0 || box.y0 > size.y) continue;
      if (taken.some((o) => o.x0 < box.x1 && box.x0 < o.x1 && o.y0 < box.y1 && box.y0 < o.y1)) continue;
      taken.push(box);
      L.marker([lat, lon], { interactive: false, keyboard: false, pane, icon: L.divIcon({ className: `place-label ${f.properties.kind}`, html: "", iconSize: null }) })
        .addTo(this.group).getElement().textContent = f.properties.name;
    }
  }
}
