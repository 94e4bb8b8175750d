// The timeline: photos per month as bars, a window to brush (drag either
// edge or the window itself, or drag a new one), play/pause that slides
// the window a month at a time at 1×, 2× or 4×, and the arrow keys.

import { longMonth } from "./months.js";

const NS = "http://www.w3.org/2000/svg";
const BAR = 10; // view-box units per month

export class Timeline {
  // el holds the timeline; onChange(from, to, final) is called as the
  // window moves, final when a drag or key press is done.
  constructor(el, onChange) {
    this.el = el;
    this.onChange = onChange;
    this.svg = el.querySelector("svg");
    this.label = el.querySelector("[data-testid=window]");
    this.playButton = el.querySelector("[data-testid=play]");
    this.speed = el.querySelector("[data-testid=speed]");
    this.timer = null;
    this.playButton.addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    this.speed.addEventListener("change", () => { if (this.timer) { this.pause(); this.play(); } });
  }

  // setBins draws the histogram over the extent [from, to] (months).
  setBins(counts, extent) {
    this.extent = extent;
    const n = extent.to - extent.from + 1;
    this.svg.setAttribute("viewBox", `0 0 ${n * BAR} 100`);
    this.svg.replaceChildren();
    const top = Math.max(1, ...counts.values());
    for (let i = 0; i < n; i++) {
      const c = counts.get(extent.from + i) || 0;
      if (!c) continue;
      const h = Math.max(2, (90 * c) / top);
      const r = document.createElementNS(NS, "rect");
      r.setAttribute("x", i * BAR + 1);
      r.setAttribute("width", BAR - 2);
      r.setAttribute("y", 100 - h);
      r.setAttribute("height", h);
      r.setAttribute("class", "bar");
      const t = document.createElementNS(NS, "title");
      t.textContent = `${longMonth(extent.from + i)}: ${c}`;
      r.append(t);
      this.svg.append(r);
    }
    // Year ticks.
    for (let i = 0; i < n; i++) {
      if ((extent.from + i) % 12 !== 0) continue;
      const t = document.createElementNS(NS, "text");
      t.setAttribute("x", i * BAR + 2);
      t.setAttribute("y", 10);
      t.setAttribute("class", "year");
      t.textContent = Math.floor((extent.from + i) / 12);
      this.svg.append(t);
    }
    this.sel = document.createElementNS(NS, "rect");
    this.sel.setAttribute("class", "window");
    this.sel.setAttribute("y", 0);
    this.sel.setAttribute("height", 100);
    this.handles = ["from", "to"].map((edge) => {
      const h = document.createElementNS(NS, "rect");
      h.setAttribute("class", "handle");
      h.setAttribute("y", 0);
      h.setAttribute("height", 100);
      h.setAttribute("width", 4);
      h.dataset.edge = edge;
      return h;
    });
    this.svg.append(this.sel, ...this.handles);
    this.wireDrag();
    this.wireKeys();
  }

  // set moves the window to [from, to] (months) without telling anyone.
  set(from, to) {
    const e = this.extent;
    from = Math.max(e.from, Math.min(from, e.to));
    to = Math.max(from, Math.min(to, e.to));
    this.from = from;
    this.to = to;
    this.sel.setAttribute("x", (from - e.from) * BAR);
    this.sel.setAttribute("width", (to - from + 1) * BAR);
    this.handles[0].setAttribute("x", (from - e.from) * BAR - 2);
    this.handles[1].setAttribute("x", (to - e.from + 1) * BAR - 2);
    const text = from === to ? longMonth(from) : `${longMonth(from)} – ${longMonth(to)}`;
    this.label.textContent = text;
    this.el.querySelector("[role=slider]").setAttribute("aria-valuetext", text);
    this.el.querySelector("[role=slider]").setAttribute("aria-valuenow", from - e.from);
  }

  move(from, to, final) {
    if (from === this.from && to === this.to && !final) return;
    this.set(from, to);
    this.onChange(this.from, this.to, final);
  }

  whole() { return this.from <= this.extent.from && this.to >= this.extent.to; }

  monthAt(clientX) {
    const r = this.svg.getBoundingClientRect();
    const n = this.extent.to - this.extent.from + 1;
    const i = Math.floor(((clientX - r.left) / r.width) * n);
    return this.extent.from + Math.max(0, Math.min(n - 1, i));
  }

  wireDrag() {
    let drag = null;
    this.svg.onpointerdown = (ev) => {
      this.pause();
      const m = this.monthAt(ev.clientX);
      const edge = ev.target.dataset?.edge;
      if (edge) drag = { kind: edge };
      // The window moves when dragged, unless it is everything: then a
      // drag draws a new one.
      else if (ev.target === this.sel && !this.whole()) drag = { kind: "window", at: m, from: this.from, to: this.to };
      else { drag = { kind: "new", at: m }; this.move(m, m, false); }
      this.svg.setPointerCapture(ev.pointerId);
      ev.preventDefault();
    };
    this.svg.onpointermove = (ev) => {
      if (!drag) return;
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
    };
    const end = () => { if (drag) { drag = null; this.move(this.from, this.to, true); } };
    this.svg.onpointerup = end;
    this.svg.onpointercancel = end;
  }

  wireKeys() {
    const slider = this.el.querySelector("[role=slider]");
    slider.setAttribute("aria-valuemin", 0);
    slider.setAttribute("aria-valuemax", this.extent.to - this.extent.from);
    slider.onkeydown = (ev) => {
      const step = ev.key === "PageUp" || ev.key === "PageDown" ? 12 : 1;
      const span = this.to - this.from;
      let from = this.from, to = this.to;
      switch (ev.key) {
        case "ArrowLeft": case "ArrowDown": case "PageDown":
          if (ev.shiftKey) to = Math.max(from, to - 1); else { from -= step; to = from + span; }
          break;
        case "ArrowRight": case "ArrowUp": case "PageUp":
          if (ev.shiftKey) to = Math.min(this.extent.to, to + 1); else { from += step; to = from + span; }
          break;
        case "Home": from = this.extent.from; to = from + span; break;
        case "End": to = this.extent.to; from = to - span; break;
        default: return;
      }
      ev.preventDefault();
      if (from < this.extent.from) { from = this.extent.from; to = from + span; }
      if (to > this.extent.to) { to = this.extent.to; from = to - span; }
      this.move(from, to, true);
    };
  }

  play() {
    if (this.to >= this.extent.to) {
      const span = this.to - this.from;
      this.move(this.extent.from, this.extent.from + span, true);
    }
    const ms = 1000 / Number(this.speed.value || 1);
    // Steps while playing are not history; where it stops is.
    this.timer = setInterval(() => {
      if (this.to >= this.extent.to) { this.pause(); return; }
      this.move(this.from + 1, this.to + 1, false);
    }, ms);
    this.playButton.textContent = "Pause";
    this.playButton.setAttribute("aria-pressed", "true");
  }

  pause() {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.playButton.textContent = "Play";
    this.playButton.setAttribute("aria-pressed", "false");
    this.onChange(this.from, this.to, true);
  }
}
