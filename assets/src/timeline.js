// The timeline: photos per month as bars over a count axis, with year and
// month labels drawn at their real size; a window to brush (drag either
// edge — each has a 24 px grip — or the window itself, or drag out a new
// one); play, which slides the window a month at a time at 1×, 2× or 4×
// (or piles the months up), from the first busy month, optionally in a
// loop; keys (arrows, Page Up/Down, Home/End, Shift to
// widen, Y a year, M a month, A everything); and, for a short window, the
// photos per day.
//
// On a right-to-left page the timeline runs right to left, as the page
// reads (and as browsers draw a range input there): the first month at
// the right, the count axis on the right, and the arrow keys move the
// window the way they point on the screen (left is later).

import { longMonth, rangeText } from "./months.js";
import { compact, digits, monthName, num, rtl, t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const AXIS = 40; // px for the count axis
const TOP = 16; // px for the year labels
const BOTTOM = 14; // px for the month labels
const GRIP = 24; // px: the hit area of an edge

// A month's label under its bar when there is room: its initial, or on
// an Arabic page its number (the Levant's and the Gregorian names share
// no initials).
const initial = (m) => (rtl ? digits(String(m % 12 + 1)) : "JFMAMJJASOND"[m % 12]);

export class Timeline {
  // el holds the timeline; onChange(from, to, final) is called as the
  // window moves, final when a drag, a key press or play is done.
  constructor(el, onChange) {
    this.el = el;
    this.onChange = onChange;
    this.svg = el.querySelector("svg.timeline-chart");
    this.daySvg = el.querySelector("svg.day-chart");
    this.tip = el.querySelector("[data-testid=chart-tip]");
    this.label = el.querySelector("[data-testid=window]");
    this.slider = el.querySelector("[role=slider]");
    this.playButton = el.querySelector("[data-testid=play]");
    this.speed = el.querySelector("[data-testid=speed]");
    this.loop = el.querySelector("[data-testid=loop]");
    this.cumulative = el.querySelector("[data-testid=cumulative]");
    this.timer = null;
    this.counts = new Map();
    this.playButton.addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    this.speed.addEventListener("change", () => { if (this.timer) { this.pause(); this.play(); } });
    new ResizeObserver(() => { if (this.extent) this.draw(); }).observe(this.svg);
    this.wireDrag();
    this.wireKeys();
  }

  // setEvents draws the conflict events per month (a Map of month index
  // to count), or none (null).
  setEvents(counts) {
    this.eventCounts = counts;
    if (this.extent) this.draw();
  }

  // setBins sets the counts by month over the extent [from, to] (months).
  setBins(counts, extent) {
    this.counts = counts;
    this.extent = extent;
    this.slider.setAttribute("aria-valuemin", 0);
    this.slider.setAttribute("aria-valuemax", extent.to - extent.from);
    if (this.from === undefined) { this.from = extent.from; this.to = extent.to; }
    this.draw();
    this.set(this.from, this.to);
  }

  get months() { return this.extent.to - this.extent.from + 1; }

  // geometry of the chart in pixels: edge(m) is where month m begins
  // (its left on a left-to-right page, its right otherwise), col(m) the
  // left of its column, axis where the count axis's labels end.
  geom() {
    const width = Math.max(100, this.svg.clientWidth), height = Math.max(60, this.svg.clientHeight);
    const g = axes(width, this.months, this.extent.from);
    return { ...g, height, barTop: TOP, barBottom: height - (g.bw >= 14 ? BOTTOM : 4) };
  }

  draw() {
    const g = this.geom();
    this.svg.setAttribute("viewBox", `0 0 ${g.width} ${g.height}`);
    this.svg.setAttribute("width", g.width);
    this.svg.setAttribute("height", g.height);
    const kids = [];
    const top = Math.max(1, ...this.counts.values());
    const scale = (c) => ((g.barBottom - g.barTop) * c) / top;
    // The count axis: the largest month and half of it.
    for (const v of [top, Math.round(top / 2)]) {
      if (v <= 0) continue;
      const y = g.barBottom - scale(v);
      kids.push(el("line", { x1: g.lo - 3, x2: g.hi + 3, y1: y, y2: y, class: "grid" }));
      kids.push(el("text", { x: g.axis, y: y + 4, class: "axis", "text-anchor": "end" }, compact(v)));
    }
    kids.push(el("text", { x: g.axis, y: g.barBottom, class: "axis", "text-anchor": "end" }, digits("0")));
    kids.push(el("line", { x1: g.lo, x2: g.hi, y1: g.barBottom, y2: g.barBottom, class: "baseline" }));
    for (let m = this.extent.from; m <= this.extent.to; m++) {
      const c = this.counts.get(m) || 0;
      if (c) {
        const hgt = Math.max(2, scale(c));
        kids.push(el("rect", { x: g.col(m) + (g.bw > 4 ? 1 : 0), width: Math.max(1, g.bw - (g.bw > 4 ? 2 : 0)), y: g.barBottom - hgt, height: hgt, class: "bar" }));
      }
      // A year's label where there is room for it (every year, or every
      // second, fifth …).
      if (m % 12 === 0) {
        const year = Math.floor(m / 12);
        const every = g.bw * 12 >= 34 ? 1 : g.bw * 12 >= 17 ? 2 : 5;
        if (year % every === 0) kids.push(el("text", { x: g.edge(m) + (rtl ? -2 : 2), y: 12, class: "year", "text-anchor": rtl ? "end" : "start" }, digits(String(year))));
        kids.push(el("line", { x1: g.edge(m), x2: g.edge(m), y1: TOP - 2, y2: g.barBottom, class: "year-tick" }));
      }
      if (g.bw >= 14) kids.push(el("text", { x: g.col(m) + g.bw / 2, y: g.height - 3, class: "month", "text-anchor": "middle" }, initial(m)));
    }
    // The conflict events per month, when their layer is on: a line on a
    // scale of its own (the busiest month at the top), beside the bars.
    if (this.eventCounts) {
      const etop = Math.max(1, ...this.eventCounts.values());
      const pts = [];
      for (let m = this.extent.from; m <= this.extent.to; m++) {
        const y = g.barBottom - ((g.barBottom - g.barTop) * (this.eventCounts.get(m) || 0)) / etop;
        pts.push(`${(g.col(m) + g.bw / 2).toFixed(1)},${y.toFixed(1)}`);
      }
      const line = el("polyline", { points: pts.join(" "), class: "events-line", "data-testid": "events-line" });
      line.append(el("title", {}, t("timeline.events")));
      kids.push(line);
    }
    this.sel = el("rect", { class: "window", y: 0, height: g.height });
    this.handles = ["from", "to"].map((edge) => el("rect", { class: "handle", y: 0, height: g.height, width: 4, "data-edge": edge }));
    // The grips: transparent, 24 px wide, over the edges.
    this.grips = ["from", "to"].map((edge) => el("rect", { class: "grip", y: 0, height: g.height, width: GRIP, "data-edge": edge }));
    kids.push(this.sel, ...this.handles, ...this.grips);
    this.svg.replaceChildren(...kids);
    if (this.from !== undefined) this.place();
  }

  // place moves the window's drawing to [from, to].
  place() {
    const g = this.geom();
    const x0 = Math.min(g.edge(this.from), g.edge(this.to + 1)), x1 = Math.max(g.edge(this.from), g.edge(this.to + 1));
    this.sel.setAttribute("x", x0);
    this.sel.setAttribute("width", Math.max(1, x1 - x0));
    // The handles are the window's from and to edges, wherever they are.
    const [xf, xt] = rtl ? [x1, x0] : [x0, x1];
    this.handles[0].setAttribute("x", xf - 2);
    this.handles[1].setAttribute("x", xt - 2);
    this.grips[0].setAttribute("x", xf - GRIP / 2);
    this.grips[1].setAttribute("x", xt - GRIP / 2);
  }

  // set moves the window to [from, to] (months) without telling anyone.
  set(from, to) {
    const e = this.extent;
    from = Math.max(e.from, Math.min(from, e.to));
    to = Math.max(from, Math.min(to, e.to));
    this.from = from;
    this.to = to;
    this.place();
    let n = 0;
    for (let m = from; m <= to; m++) n += this.counts.get(m) || 0;
    const text = (from === to ? longMonth(from) : rangeText(longMonth(from), longMonth(to))) + " · " + t("timeline.dated", { n });
    this.label.textContent = text;
    this.slider.setAttribute("aria-valuetext", text);
    this.slider.setAttribute("aria-valuenow", from - e.from);
  }

  // showSelection says the window as the explorer counted it, days and
  // all: one selection, one number — the month bars leave out photos dated
  // only to a year, and a typed day cuts a month.
  showSelection(text, n) {
    const label = text + " · " + t("timeline.dated", { n });
    this.label.textContent = label;
    this.slider.setAttribute("aria-valuetext", label);
  }

  move(from, to, final) {
    if (from === this.from && to === this.to && !final) return;
    this.set(from, to);
    this.onChange(this.from, this.to, final);
  }

  whole() { return this.from <= this.extent.from && this.to >= this.extent.to; }

  monthAt(clientX) {
    const r = this.svg.getBoundingClientRect();
    const g = this.geom();
    return this.extent.from + Math.max(0, Math.min(this.months - 1, g.index(clientX - r.left)));
  }

  wireDrag() {
    let drag = null;
    this.svg.addEventListener("pointerdown", (ev) => {
      this.pause();
      const m = this.monthAt(ev.clientX);
      const edge = ev.target.dataset?.edge;
      if (edge) drag = { kind: edge };
      // The window moves when dragged, unless it is everything: then a
      // drag draws a new one.
      else if (ev.target === this.sel && !this.whole()) drag = { kind: "window", at: m, from: this.from, to: this.to };
      else { drag = { kind: "new", at: m }; this.move(m, m, false); }
      this.svg.setPointerCapture(ev.pointerId);
      this.tip.hidden = true;
      ev.preventDefault();
    });
    this.svg.addEventListener("pointermove", (ev) => {
      if (!drag) {
        this.showTip(ev);
        return;
      }
      const m = this.monthAt(ev.clientX);
      if (drag.kind === "from") this.move(Math.min(m, this.to), this.to, false);
      else if (drag.kind === "to") this.move(this.from, Math.max(m, this.from), false);
      else if (drag.kind === "new") this.move(Math.min(m, drag.at), Math.max(m, drag.at), false);
      else {
        const span = drag.to - drag.from;
        let from = drag.from + (m - drag.at);
        from = Math.max(this.extent.from, Math.min(from, this.extent.to - span));
        this.move(from, from + span, false);
      }
    });
    this.svg.addEventListener("pointerleave", () => { this.tip.hidden = true; });
    const end = () => { if (drag) { drag = null; this.move(this.from, this.to, true); } };
    this.svg.addEventListener("pointerup", end);
    this.svg.addEventListener("pointercancel", end);
  }

  // showTip names the month under the pointer and its count.
  showTip(ev) {
    const m = this.monthAt(ev.clientX);
    const c = this.counts.get(m) || 0;
    this.tip.textContent = t("timeline.tip", { month: longMonth(m), photos: t("common.photos", { n: c }) });
    this.tip.hidden = false;
    const r = this.svg.getBoundingClientRect();
    const x = Math.min(Math.max(0, ev.clientX - r.left - this.tip.offsetWidth / 2), r.width - this.tip.offsetWidth);
    this.tip.style.transform = `translateX(${x}px)`;
  }

  wireKeys() {
    this.slider.addEventListener("keydown", (ev) => {
      const step = ev.key === "PageUp" || ev.key === "PageDown" ? 12 : 1;
      const span = this.to - this.from;
      let from = this.from, to = this.to;
      // The arrows move the window the way they point: back is left on a
      // left-to-right page, right on a right-to-left one.
      const key = rtl && (ev.key === "ArrowLeft" || ev.key === "ArrowRight") ? (ev.key === "ArrowLeft" ? "ArrowRight" : "ArrowLeft") : ev.key;
      switch (key) {
        case "ArrowLeft": case "ArrowDown": case "PageDown":
          if (ev.shiftKey) to = Math.max(from, to - 1); else { from -= step; to = from + span; }
          break;
        case "ArrowRight": case "ArrowUp": case "PageUp":
          if (ev.shiftKey) to = Math.min(this.extent.to, to + 1); else { from += step; to = from + span; }
          break;
        case "Home": from = this.extent.from; to = from + span; break;
        case "End": to = this.extent.to; from = to - span; break;
        case "y": case "Y": from = from - (from % 12); to = from + 11; break; // the window's first year
        case "m": case "M": to = from; break; // its first month
        case "a": case "A": from = this.extent.from; to = this.extent.to; break;
        default: return;
      }
      ev.preventDefault();
      const e = this.extent;
      if (to - from === span) {
        // A move past either end stops there with the window's length:
        // PageDown in the first year leaves a year, not a month.
        if (from < e.from) { from = e.from; to = Math.min(e.to, from + span); }
        if (to > e.to) { to = e.to; from = Math.max(e.from, to - span); }
      } else {
        if (from < e.from) { from = e.from; to = Math.max(to, from); }
        if (to > e.to) { to = e.to; from = Math.min(from, to); }
      }
      this.move(from, to, true);
    });
  }

  // firstBusyMonth is the first month that holds a tenth of a typical
  // (median) month's photos: play starts there, not in the near-empty
  // months before the war's photos begin.
  firstBusyMonth() {
    const e = this.extent;
    const filled = [...this.counts.entries()].filter(([m, c]) => c > 0 && m >= e.from && m <= e.to).map(([, c]) => c).sort((a, b) => a - b);
    if (!filled.length) return e.from;
    const typical = filled[Math.floor(filled.length / 2)];
    for (let m = e.from; m <= e.to; m++) if ((this.counts.get(m) || 0) * 10 >= typical) return m;
    return e.from;
  }

  // play slides the window a month at a time, or with "pile up" keeps its
  // start and widens it a month at a time, so the photos accumulate; from
  // a window that is everything, it starts with the first busy month
  // alone.
  play() {
    const first = this.firstBusyMonth();
    const restart = () => {
      const span = this.cumulative.checked ? 0 : this.to - this.from;
      this.move(first, Math.min(this.extent.to, first + span), false);
    };
    if (this.whole()) this.move(first, first, false);
    else if (this.to >= this.extent.to) restart();
    const ms = 1000 / Number(this.speed.value || 1);
    // Steps while playing are not history; where it stops is.
    this.timer = setInterval(() => {
      if (this.to >= this.extent.to) {
        if (!this.loop.checked) { this.pause(); return; }
        restart();
        return;
      }
      this.move(this.cumulative.checked ? this.from : this.from + 1, this.to + 1, false);
    }, ms);
    this.playButton.textContent = t("timeline.pause");
    this.playButton.setAttribute("aria-pressed", "true");
  }

  pause() {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.playButton.textContent = t("timeline.play");
    this.playButton.setAttribute("aria-pressed", "false");
    this.onChange(this.from, this.to, true);
  }

  // showDays draws the photos per day of a short window (counts by
  // "YYYY-MM-DD"), or hides the strip when days is null.
  showDays(days) {
    // An <svg> has no hidden property (it is HTML's): the attribute it is.
    this.daySvg.toggleAttribute("hidden", !days);
    if (!days) return;
    const width = Math.max(100, this.daySvg.clientWidth), height = 48;
    this.daySvg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    this.daySvg.setAttribute("height", height);
    const g = axes(width, days.length, 0), bw = g.bw;
    const top = Math.max(1, ...days.map((d) => d.count));
    const kids = [el("text", { x: g.axis, y: 12, class: "axis", "text-anchor": "end" }, compact(top))];
    days.forEach((d, i) => {
      const x = g.col(i);
      if (d.count) {
        const hgt = Math.max(2, (28 * d.count) / top);
        const r = el("rect", { x: x + (bw > 3 ? 0.5 : 0), width: Math.max(1, bw - (bw > 3 ? 1 : 0)), y: 34 - hgt, height: hgt, class: "bar" });
        r.append(el("title", {}, `${digits(d.day)}: ${num(d.count)}`));
        kids.push(r);
      }
      // A month begins with its name, not a "1"; days are numbered where
      // there is room, clear of the name.
      const dayOfMonth = Number(d.day.slice(8));
      if (dayOfMonth === 1) {
        kids.push(el("text", { x: rtl ? x + bw : x, y: height - 3, class: "month", "text-anchor": rtl ? "end" : "start" }, monthName(Number(d.day.slice(5, 7)))));
      } else if ((bw >= 9 && dayOfMonth % 5 === 0 && dayOfMonth >= 10) || (bw >= 18 && dayOfMonth >= 6)) {
        kids.push(el("text", { x: x + bw / 2, y: height - 3, class: "month", "text-anchor": "middle" }, digits(String(dayOfMonth))));
      }
    });
    kids.push(el("line", { x1: g.lo, x2: g.hi, y1: 34, y2: 34, class: "baseline" }));
    this.daySvg.replaceChildren(...kids);
  }
}

function el(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}


// axes lays n columns (from first) across width px beside the count
// axis, in the page's direction: lo–hi is the bars' span, edge(i) where
// column i begins in time, col(i) its left, index(x) the column at x,
// axis where the axis's labels end (text-anchor end: the charts are
// drawn with direction ltr, their mirroring done here).
function axes(width, n, first) {
  const bw = (width - AXIS) / n;
  const lo = rtl ? 0 : AXIS, hi = rtl ? width - AXIS : width;
  const edge = (i) => (rtl ? hi - (i - first) * bw : lo + (i - first) * bw);
  return { width, bw, lo, hi, edge, col: (i) => (rtl ? edge(i) - bw : edge(i)),
    index: (x) => Math.floor((rtl ? hi - x : x - lo) / bw), axis: rtl ? width - 6 : AXIS - 6 };
}
