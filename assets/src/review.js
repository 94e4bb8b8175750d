// The review page: a map with the photo's place, the other readings and a
// pin to drag (or a click to set a point), place names found as one types
// them, and keys for the common choices. The forms work without it.

import L from "leaflet";
import { loadBasemap, PlaceLabels } from "./basemap.js";
import { gpsPoint, Scale, side, zoomControl } from "./map.js";
import { localized, num, placeName, t } from "./i18n.js";
import { plain } from "./dom.js";
import { FilterForm } from "./filters.js";
import { filterQuery } from "./state.js";

// reviewFilters gives the review queue's filters the explorer's lists to
// search, with counts; they apply when the form is sent (Apply), since
// each change would load the page again.
export function reviewFilters(form) {
  const field = (name) => form.elements.namedItem(name).value.trim();
  const query = (filters, extra = {}, except = null) => filterQuery(filters, { from: field("from"), to: field("to"), ...extra }, except);
  const filters = new FilterForm(form, {
    facetsUrl: form.dataset.facetsUrl, placesSearchUrl: form.dataset.placesSearchUrl,
    query: (except, extra) => query(filters.filters, extra, except),
    onChange: () => {}, onWindow: () => {}, onClear: () => {},
    onSubmit: (f) => {
      const to = new URL(form.getAttribute("action"), location.href);
      to.search = query(f);
      location.assign(localized(to.pathname + to.search));
    },
  });
}

export function review(root) {
  // (A page that may not be answered, as a look at one's own placement,
  // has the map and no form.)
  const form = root.querySelector("[data-testid=review-form]");
  const el = root.querySelector("#review-map");
  const map = L.map(el, { zoomSnap: 0.5, minZoom: 4, maxZoom: 17, zoomControl: false });
  zoomControl().addTo(map);
  map.attributionControl.setPrefix(false);
  new Scale({ imperial: false, position: side("bottomleft") }).addTo(map);
  loadBasemap(map, el.dataset.basemapUrl, el.dataset.tiles).catch((err) => console.error(err));
  new PlaceLabels(map, el.dataset.labelsUrl);
  const bounds = [];
  const choices = [...root.querySelectorAll(".choice-point")].map((c) => ({ at: [Number(c.dataset.lat), Number(c.dataset.lon)],
    // The reading's key in the page's digits (١ on an Arabic page, as
    // the buttons say) and its name and kind.
    text: `${num(Number(c.dataset.n))}: ${c.dataset.label}` }));
  for (const c of choices) bounds.push(c.at);
  const start = el.dataset.lon ? [Number(el.dataset.lat), Number(el.dataset.lon)] : null;
  if (start) bounds.push(start);
  const gps = gpsPoint(map, el.dataset, start, el.dataset.label);
  if (gps) bounds.push(gps);
  // The place the file's IPTC location names, beside the caption's.
  let iptc = null;
  if (el.dataset.iptcLon && el.dataset.iptcLat) {
    const at = [Number(el.dataset.iptcLat), Number(el.dataset.iptcLon)];
    bounds.push(at);
    iptc = L.marker(at, { icon: L.divIcon({ className: "iptc-mark", html: "", iconSize: [14, 14] }), keyboard: false, interactive: false })
      .addTo(map).bindTooltip(plain(el.dataset.iptcLabel), { permanent: true, direction: "auto", offset: [0, 0], className: "iptc-tip" });
  }
  // Room around the points for their labels.
  if (bounds.length > 1) map.fitBounds(bounds, { padding: [90, 60], maxZoom: 12 });
  else map.setView(start || bounds[0] || [35, 38.5], start || bounds.length ? 11 : 6.5);
  const pin = form ? placePin(map, start, el.dataset.label) : null;
  const marks = choiceMarks(map, choices);
  const layout = () => layoutTips(map, marks, [pin, iptc].filter(Boolean));
  layout();
  map.on("zoomend", layout);
  if (!form) return;
  const lon = form.querySelector("[data-testid=lon]"), lat = form.querySelector("[data-testid=lat]");
  const setPoint = (ll) => {
    pin.setLatLng(ll);
    lon.value = ll.lng.toFixed(6);
    lat.value = ll.lat.toFixed(6);
  };
  pin.on("dragend", () => setPoint(pin.getLatLng()));
  map.on("click", (e) => setPoint(e.latlng));

  // Place names as one types, English or Arabic.
  const search = form.querySelector("[data-testid=place-search]");
  const options = document.getElementById("place-options");
  let timer = null, seq = 0;
  search.addEventListener("input", () => {
    clearTimeout(timer);
    const q = search.value.trim();
    if (q.length < 2 || /\[[^\]]+\]$/.test(q)) return;
    timer = setTimeout(async () => {
      const mine = ++seq;
      const res = await fetch(`${root.dataset.searchUrl}?q=${encodeURIComponent(q)}&limit=10`);
      if (!res.ok || mine !== seq) return;
      options.replaceChildren(...(await res.json()).map((p) => {
        const o = document.createElement("option");
        o.value = `${placeName(p.name, p.name_ar)} — ${t(`kind.${p.kind}`)}${p.in ? t("common.list-sep") + p.in : ""} [${p.id}]`;
        return o;
      }));
    }, 200);
  });

  // Keys, when no field has the focus.
  document.addEventListener("keydown", (ev) => {
    const at = ev.target;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || at.closest?.("input, textarea, select, [contenteditable]")) return;
    const k = ev.key.toLowerCase();
    const target = root.querySelector(`[data-key="${CSS.escape(k)}"]`);
    if (!target) return;
    ev.preventDefault();
    if (target.matches("input")) target.focus();
    else target.click();
  });
}

// placePin is the pin: where the photo is now (start); drag it, or click
// the map, to put the photo at a point. It says what it is above its
// head (it is anchored at its foot, 22 px below).
function placePin(map, start, label) {
  const icon = L.divIcon({ className: "pin", html: "", iconSize: [22, 22], iconAnchor: [11, 22] });
  const pin = L.marker(start || map.getCenter(), { icon, draggable: true, keyboard: true, title: t("review.pin-title"), alt: t("photo.its-point") }).addTo(map);
  if (start) pin.bindTooltip(plain(t("review.pin-now-at", { place: label || t("review.pin-now") })), { permanent: true, direction: "top", offset: [0, -24], className: "pin-tip" });
  return pin;
}

// choiceMarks draws the readings, those within a few pixels of one
// another (a city, its district and its governorate at one point) as one
// mark whose label has a line each: labels of their own piled up on the
// point, one over another.
function choiceMarks(map, choices) {
  const groups = [];
  for (const c of choices) {
    const pt = map.latLngToContainerPoint(c.at);
    const g = groups.find((g) => g.pt.distanceTo(pt) < 16);
    if (g) g.lines.push(c.text);
    else groups.push({ at: c.at, pt, lines: [c.text] });
  }
  return groups.map((g) => {
    const m = L.circleMarker(g.at, { radius: 7, weight: 2, color: "#8a4b00", fillColor: "#fff", fillOpacity: 1 }).addTo(map);
    m.lines = g.lines;
    return m;
  });
}

// layoutTips labels each mark on the first side of right, left, below
// and above where its label meets no other label (the pin's and the
// file's place's among them) and stays inside the map; on its right when
// none is.
function layoutTips(map, marks, others) {
  const box = map.getContainer().getBoundingClientRect();
  const placed = others.map((o) => o.getTooltip()?.getElement()?.getBoundingClientRect()).filter(Boolean);
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const inside = (r) => r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom;
  const label = (m, direction) => {
    m.unbindTooltip();
    m.bindTooltip(plain(m.lines.join("\n")), { permanent: true, direction, offset: [0, 0], className: "choice-lines" }).openTooltip();
    return m.getTooltip().getElement().getBoundingClientRect();
  };
  for (const m of marks) {
    let rect = null;
    for (const direction of ["right", "left", "bottom", "top"]) {
      rect = label(m, direction);
      if (inside(rect) && !placed.some((p) => meets(p, rect))) break;
      rect = null;
    }
    placed.push(rect || label(m, "right"));
  }
}
