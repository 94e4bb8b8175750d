// The offline basemap every map draws — land, borders, rivers, country
// and governorate names (/api/basemap) — and the gazetteer's place names
// by zoom (/api/labels), so that the photo, place and review maps can be
// read and aimed as the explorer's can.

import L from "leaflet";
import { has, placeName, t } from "./i18n.js";

// labelOf is a basemap feature's name in the reader's language: the
// governorates' and rivers' Arabic names come with the basemap, the
// countries' from the catalogue.
function labelOf(p) {
  if (p.layer === "country-label" && has(`country.name.${p.name}`)) return placeName(p.name, t(`country.name.${p.name}`));
  return placeName(p.name, p.name_ar);
}

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
      // Centred on its point by an inner box: Leaflet's own transform
      // places the outer one.
      const inner = document.createElement("span");
      inner.textContent = labelOf(f.properties);
      inner.dir = "auto";
      Object.assign(inner.dataset, { lat, lon }); // for PlaceLabels.clearGovernorates
      L.marker([lat, lon], { interactive: false, keyboard: false, pane, icon: L.divIcon({ className: cls, html: inner, iconSize: null }) })
        .addTo(group);
    }
  }
  map.attributionControl?.addAttribution("Natural Earth · UN-OCHA · GeoNames");
  return countries.getLayers().find((l) => l.feature.properties.name === "Syria")?.getBounds();
}

// loadBasemap fetches the basemap at url and draws it on map, under
// whatever the map shows already. With tiles (the server's --tiles), a
// switch offers the online tiles under the basemap's outlines; the
// offline map is first.
export async function loadBasemap(map, url, tiles = "") {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`basemap: ${res.status}`);
  const fc = await res.json();
  const group = L.layerGroup().addTo(map);
  const draw = (filled) => {
    group.clearLayers();
    map.getContainer().classList.toggle("over-tiles", !filled);
    drawBasemap(map, group, fc, filled);
    group.eachLayer((l) => l.bringToBack?.());
  };
  draw(true);
  if (tiles) tileSwitch(map, tiles, "", draw);
  return group;
}

// tileSwitch adds the choice of the offline map or online tiles; draw
// (filled) redraws the offline map, filled or as outlines over the tiles.
export function tileSwitch(map, tiles, attribution, draw) {
  const offline = L.layerGroup().addTo(map);
  const online = L.tileLayer(tiles, { maxZoom: 19, attribution });
  L.control.layers({ [t("map.offline")]: offline, [t("map.online")]: online }, null, { collapsed: false }).addTo(map);
  map.on("baselayerchange", (e) => draw(e.layer === offline));
}

// PlaceLabels names the gazetteer's places on a map by zoom (cities
// first, villages and quarters close in), the most prominent first and
// none over another, redrawn when the view settles. obstacles() gives
// circles ({x, y, r} in the container's pixels) a name must not cover —
// the photos' markers: a place under one is named beside it.
export class PlaceLabels {
  constructor(map, url, obstacles = () => []) {
    this.map = map;
    this.url = url;
    this.obstacles = obstacles;
    this.group = L.layerGroup().addTo(map);
    this.features = [];
    this.timer = null;
    this.layoutTimer = null;
    this.seq = 0;
    map.on("moveend", () => this.schedule());
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.draw(), 150);
  }

  // layoutSoon places the names again, once the obstacles have moved.
  layoutSoon() {
    clearTimeout(this.layoutTimer);
    this.layoutTimer = setTimeout(() => this.layout(), 100);
  }

  async draw() {
    const map = this.map, zoom = Math.floor(map.getZoom()), seq = ++this.seq;
    const res = await fetch(`${this.url}?bbox=${bboxOf(map, 0.1)}&zoom=${zoom}`);
    if (!res.ok || seq !== this.seq) return;
    this.features = (await res.json()).features;
    this.layout();
  }

  // layout puts each name at the first free place of: right of its point;
  // if a marker covers the point, right of, left of, above or below the
  // marker; else left of, above or below the point. A name with no free
  // place is left out.
  layout() {
    const map = this.map, size = map.getSize(), pane = labelsPane(map);
    const circles = this.obstacles();
    const taken = this.clearGovernorates(circles);
    const free = (b) => b.x0 >= 0 && b.y0 >= 0 && b.x1 <= size.x && b.y1 <= size.y &&
      !taken.some((o) => o.x0 < b.x1 && b.x0 < o.x1 && o.y0 < b.y1 && b.y0 < o.y1) &&
      !circles.some((c) => boxMeetsCircle(b, c));
    this.group.clearLayers();
    for (const f of this.features) {
      const { kind } = f.properties;
      const name = placeName(f.properties.name, f.properties.name_ar);
      const [lon, lat] = f.geometry.coordinates;
      const pt = map.latLngToContainerPoint([lat, lon]);
      const w = textWidth(name, kind) + 2, h = kind === "city" ? 16 : 14;
      const under = circles.find((c) => Math.hypot(c.x - pt.x, c.y - pt.y) < c.r);
      const at = under || { x: pt.x, y: pt.y, r: 2 };
      const gap = at.r + 3;
      const boxes = [
        ...(under ? [] : [[pt.x + 4, pt.y - h / 2]]),
        [at.x + gap, at.y - h / 2], [at.x - gap - w, at.y - h / 2],
        [at.x - w / 2, at.y - gap - h], [at.x - w / 2, at.y + gap],
      ].map(([x, y]) => ({ x0: x, y0: y, x1: x + w, y1: y + h }));
      const box = boxes.find(free);
      if (!box) continue;
      taken.push(box);
      // The name's box, placed by margins from its point (Leaflet's own
      // transform puts the element at the point); a name moved off its
      // point has no dot.
      const beside = box !== boxes[0];
      const el = L.marker([lat, lon], { interactive: false, keyboard: false, pane, icon: L.divIcon({ className: `place-label ${kind}${beside ? " beside" : ""}`, html: "", iconSize: null }) })
        .addTo(this.group).getElement();
      el.textContent = name;
      el.dir = "auto"; // a name the gazetteer has only in Latin letters
      Object.assign(el.style, { marginLeft: `${Math.round(box.x0 - pt.x)}px`, marginTop: `${Math.round(box.y0 - pt.y)}px`, lineHeight: `${h}px` });
    }
  }

  // clearGovernorates moves each governorate's and country's name (the
  // basemap's, centred on its point) that a marker covers to just below or
  // above that marker (a country's also beside it), or leaves it out when
  // those are covered too; it returns the names'
  // boxes, which the places' names then keep clear of. Boxes are the
  // map's, as the markers' circles are (the page may still be moving);
  // all sizes are read before any name is moved, so the page is laid out
  // once.
  clearGovernorates(circles) {
    const map = this.map;
    const names = [...map.getPane(labelsPane(map)).querySelectorAll(".gov-label > span, .country-label > span")];
    for (const el of names) Object.assign(el.style, { marginTop: "", marginLeft: "", visibility: "" });
    const boxes = names.map((el) => {
      const pt = map.latLngToContainerPoint([Number(el.dataset.lat), Number(el.dataset.lon)]);
      const w = el.offsetWidth, h = el.offsetHeight;
      return { x0: pt.x - w / 2, y0: pt.y - h / 2, x1: pt.x + w / 2, y1: pt.y + h / 2 };
    });
    const taken = [];
    names.forEach((el, i) => {
      const b = boxes[i];
      const over = circles.find((c) => boxMeetsCircle(b, c));
      if (!over) {
        taken.push(b);
        return;
      }
      // Below or above the marker; a country's name (wider) also right
      // or left of it.
      const shifts = [[0, over.y + over.r + 2 - b.y0], [0, over.y - over.r - 2 - b.y1]];
      if (el.parentElement.classList.contains("country-label")) shifts.push([over.x + over.r + 2 - b.x0, 0], [over.x - over.r - 2 - b.x1, 0]);
      const moved = shifts.map(([dx, dy]) => ({ x0: b.x0 + dx, x1: b.x1 + dx, y0: b.y0 + dy, y1: b.y1 + dy, dx, dy }))
        .find((m) => !circles.some((c) => boxMeetsCircle(m, c)));
      if (!moved) {
        el.style.visibility = "hidden";
        return;
      }
      el.style.marginTop = `${Math.round(moved.dy)}px`;
      el.style.marginLeft = `${Math.round(moved.dx)}px`;
      taken.push(moved);
    });
    return taken;
  }
}

function boxMeetsCircle(b, c) {
  const dx = c.x - Math.max(b.x0, Math.min(c.x, b.x1)), dy = c.y - Math.max(b.y0, Math.min(c.y, b.y1));
  return dx * dx + dy * dy < c.r * c.r;
}

// textWidth measures a name as the page draws it (the .place-label fonts).
let measure = null;
function textWidth(text, kind) {
  if (!measure) measure = document.createElement("canvas").getContext("2d");
  const family = getComputedStyle(document.body).fontFamily;
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const [scale, weight] = kind === "city" ? [0.85, 700] : kind === "town" ? [0.78, 600] : [0.72, 400];
  measure.font = `${weight} ${scale * rem}px ${family}`;
  return measure.measureText(text).width;
}
