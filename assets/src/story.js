// A story as a reader steps through it: the map and a timeline of
// 2012–2017 move to the step in view (animated, unless the reader asks
// for reduced motion); the step's photos are drawn bright, the story's
// others dimmed; a step of an explorer state draws that state's clusters.
// Steps change by scrolling, the Previous and Next buttons and the arrow
// keys; each has its own address (#step-N).

import L from "leaflet";
import { loadBasemap, PlaceLabels, bboxOf } from "./basemap.js";
import { month, parseMonth, longMonth, rangeText, firstDay, lastDay } from "./months.js";
import { EventLayer } from "./events.js";
import { readEvents } from "./eventstate.js";
import { compact, digits, rtl, t } from "./i18n.js";
import { Scale, side, zoomControl } from "./map.js";
import { plain } from "./dom.js";

const FIRST = month(2012, 1), LAST = month(2017, 12);

export function storyReader(root) {
  const steps = [...root.querySelectorAll("[data-testid=story-step]")];
  if (steps.length === 0) return;
  const $ = (id) => root.querySelector(`[data-testid=${id}]`);
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const map = L.map($("story-map"), { zoomSnap: 0.5, minZoom: 4, maxZoom: 16, scrollWheelZoom: false, zoomControl: false });
  zoomControl().addTo(map);
  map.attributionControl.setPrefix(false);
  map.setView([35, 38.5], 6);
  new Scale({ imperial: false, position: side("bottomleft") }).addTo(map);
  loadBasemap(map, root.dataset.basemapUrl, root.dataset.tiles).catch((err) => console.error(err));
  new PlaceLabels(map, root.dataset.labelsUrl).schedule();
  // The events layer of a step's saved view: no switch, its legend shown
  // while a step has it on.
  const events = root.dataset.eventsUrl ? new EventLayer(map, root.dataset.eventsUrl, { control: false }) : null;
  const dimmed = L.layerGroup().addTo(map);
  const bright = L.layerGroup().addTo(map);
  const timeline = drawTimeline($("story-timeline"));
  const pointsOf = (el) => JSON.parse(el.dataset.points || "[]") || [];
  const every = steps.flatMap(pointsOf);

  let current = -1;
  let seq = 0;
  const show = async (i, { scroll = false, push = true } = {}) => {
    i = Math.max(0, Math.min(steps.length - 1, i));
    if (i === current) return;
    current = i;
    const mine = ++seq;
    const start = performance.now();
    const el = steps[i];
    root.dataset.shown = String(i + 1);
    delete root.dataset.settled;
    for (const s of steps) s.classList.toggle("current", s === el);
    $("story-position").textContent = t("story.position", { at: i + 1, of: steps.length });
    $("story-prev").disabled = i === 0;
    $("story-next").disabled = i === steps.length - 1;
    if (push) history.replaceState(null, "", `#step-${i + 1}`);
    if (scroll) el.scrollIntoView({ behavior: still ? "auto" : "smooth", block: "start" });

    // The timeline: the step's window, or everything.
    const from = parseMonth(el.dataset.from || ""), to = parseMonth(el.dataset.to || "", true);
    timeline.set(from ?? FIRST, to ?? LAST);
    $("story-window").textContent = from === null ? "" : from === to ? longMonth(from) : rangeText(longMonth(from), longMonth(to));

    // The map: the step's photos bright, the story's others dimmed.
    const points = pointsOf(el);
    const here = new Set(points.map((p) => p[0]));
    dimmed.clearLayers();
    bright.clearLayers();
    for (const [id, lon, lat] of every) {
      if (!here.has(id)) L.circleMarker([lat, lon], { radius: 5, weight: 1, color: "#8a939c", fillColor: "#c5ccd3", fillOpacity: 0.6, interactive: false }).addTo(dimmed);
    }
    for (const [id, lon, lat] of points) {
      const big = id === el.dataset.highlight;
      L.circleMarker([lat, lon], { radius: big ? 11 : 7, weight: 2, color: "#0b5cad", fillColor: big ? "#f0a500" : "#0b5cad", fillOpacity: 0.9 })
        .bindTooltip(plain(el.querySelector(`[data-id="${CSS.escape(id)}"] [data-testid=place]`)?.textContent), { direction: "top" })
        .addTo(bright);
    }
    // The map moves (in a flight, or at once for reduced motion); the
    // step is settled when it has arrived and its markers are drawn.
    const arrived = new Promise((resolve) => map.once("moveend", resolve));
    const animate = { animate: !still, duration: still ? 0 : 0.8 };
    const view = /^(\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)$/.exec(el.dataset.view || "");
    let moving = true;
    if (view) {
      const target = L.latLng(Number(view[2]), Number(view[3]));
      moving = !map.getCenter().equals(target, 1e-4) || map.getZoom() !== Number(view[1]);
      if (still) map.setView(target, Number(view[1]), { animate: false });
      else map.flyTo(target, Number(view[1]), animate);
    } else if (points.length > 0) {
      const bounds = L.latLngBounds(points.map(([, lon, lat]) => [lat, lon]));
      if (still) map.fitBounds(bounds, { padding: [40, 40], maxZoom: 13, animate: false });
      else map.flyToBounds(bounds, { padding: [40, 40], maxZoom: 13, ...animate });
    } else moving = false;
    if (moving) await Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, still ? 300 : 1500))]);
    if (mine !== seq) return;
    // The step's events: its saved view's layer, in the step's window.
    const layer = readEvents(el.dataset.state || "");
    events?.setWindow(from === null ? 0 : firstDay(from), to === null ? 99999999 : lastDay(to));
    events?.set(layer).catch((err) => console.error(err));
    if (el.dataset.state) {
      // The explorer state's photos, as the explorer clusters them.
      const q = new URLSearchParams(el.dataset.state);
      q.delete("map");
      q.delete("photo");
      q.delete("events");
      // A saved view without a map of its own is fitted to its photos,
      // however the reader came to it (the key, a button, scrolling, the
      // address): the map left by the step before may hold none of them.
      if (!view && points.length === 0) {
        const all = new URLSearchParams(q);
        all.set("zoom", "5");
        const res = await fetch(`${root.dataset.clustersUrl}?${all}`);
        if (mine !== seq) return;
        const clusters = res.ok ? (await res.json()).clusters : [];
        if (mine !== seq) return;
        if (clusters.length > 0) {
          const fitted = new Promise((resolve) => map.once("moveend", resolve));
          map.fitBounds(L.latLngBounds(clusters.map((c) => [c.lat, c.lon])), { padding: [40, 40], maxZoom: 13, animate: false });
          await Promise.race([fitted, new Promise((resolve) => setTimeout(resolve, 300))]);
          if (mine !== seq) return;
        }
      }
      q.set("bbox", bboxOf(map, 0.1));
      q.set("zoom", String(Math.round(map.getZoom())));
      // The view's photos take a moment: the map says it is working.
      const mapEl = $("story-map"), windowText = $("story-window").textContent;
      mapEl.setAttribute("aria-busy", "true");
      $("story-window").textContent = [windowText, t("explorer.loading")].filter(Boolean).join(" · ");
      const res = await fetch(`${root.dataset.clustersUrl}?${q}`).finally(() => {
        if (mine !== seq) return;
        mapEl.removeAttribute("aria-busy");
        $("story-window").textContent = windowText;
      });
      if (!res.ok || mine !== seq) return;
      // Each cluster says how many photos it holds, as the explorer's do.
      for (const c of (await res.json()).clusters) {
        const n = c.count, size = Math.min(44, 12 + Math.sqrt(n) * 4);
        L.marker([c.lat, c.lon], { icon: L.divIcon({ className: "cluster story-cluster", html: `<span>${compact(n)}</span>`, iconSize: [size, size] }),
          keyboard: false, title: t("common.photos", { n }), alt: t("common.photos", { n }) }).addTo(bright);
      }
      map.fire("photomarks"); // the events' counts move off them
    }
    if (mine === seq) {
      performance.measure("syriamap:story-step", { start });
      root.dataset.settled = String(i + 1);
    }
  };

  $("story-prev").addEventListener("click", () => show(current - 1, { scroll: true }));
  $("story-next").addEventListener("click", () => show(current + 1, { scroll: true }));
  document.addEventListener("keydown", (ev) => {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey || ev.target.closest?.("input, textarea, select, .leaflet-container")) return;
    // Next is down, or the way the page reads: right, or on an Arabic page left.
    const [on, back] = rtl ? ["ArrowLeft", "ArrowRight"] : ["ArrowRight", "ArrowLeft"];
    if (ev.key === "ArrowDown" || ev.key === on || ev.key === "PageDown" || ev.key === "j") {
      ev.preventDefault();
      show(current + 1, { scroll: true });
    } else if (ev.key === "ArrowUp" || ev.key === back || ev.key === "PageUp" || ev.key === "k") {
      ev.preventDefault();
      show(current - 1, { scroll: true });
    }
  });
  // Scrolling: the step that crosses the upper third of the window.
  const seen = new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) show(steps.indexOf(e.target));
  }, { rootMargin: "-30% 0px -60% 0px" });
  const m = /^#step-(\d+)$/.exec(location.hash);
  show(m ? Number(m[1]) - 1 : 0, { scroll: Boolean(m), push: Boolean(m) });
  // The observer starts after the first step is shown, so that it does
  // not undo a step the address asked for.
  setTimeout(() => steps.forEach((el) => seen.observe(el)), still ? 0 : 900);
  window.addEventListener("hashchange", () => {
    const h = /^#step-(\d+)$/.exec(location.hash);
    if (h) show(Number(h[1]) - 1, { scroll: true, push: false });
  });
}

// drawTimeline draws the months from 2012 to 2017 with a window that
// moves (CSS transitions it, unless reduced motion).
function drawTimeline(el) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 720 28");
  svg.setAttribute("preserveAspectRatio", "none");
  const months = LAST - FIRST + 1;
  // Time runs the way the page reads: from the right on an Arabic page.
  const at = (m) => (rtl ? 720 - ((m - FIRST) / months) * 720 : ((m - FIRST) / months) * 720);
  for (let y = 2012; y <= 2017; y++) {
    const x = at(month(y, 1));
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", String(rtl ? x - 2 : x + 2));
    label.setAttribute("y", "26");
    if (rtl) label.setAttribute("text-anchor", "end");
    label.textContent = digits(String(y));
    const line = document.createElementNS(ns, "line");
    for (const [k, v] of Object.entries({ x1: x, x2: x, y1: 0, y2: 28 })) line.setAttribute(k, String(v));
    svg.append(line, label);
  }
  const win = document.createElementNS(ns, "rect");
  win.setAttribute("class", "story-window-rect");
  win.setAttribute("y", "2");
  win.setAttribute("height", "14");
  svg.append(win);
  el.append(svg);
  return {
    set(from, to) {
      const a = Math.max(from, FIRST), b = Math.min(to, LAST);
      win.setAttribute("x", String(rtl ? at(b + 1) : at(a)));
      win.setAttribute("width", String(Math.max(4, ((b - a + 1) / months) * 720)));
    },
  };
}
