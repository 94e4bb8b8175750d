// SpotPanel lists the photos at a stacked spot (or a cluster that no zoom
// splits): "54 photos at Aleppo Citadel, 2016", a page at a time, each
// opening its popup.

import { placeName, t } from "./i18n.js";

const PANEL_PAGE = 20; // photos the panel shows at a time

export class SpotPanel {
  constructor(el, { query, window, row }) {
    this.el = el;
    this.query = query;
    this.window = window;
    this.row = row;
    this.title = el.querySelector("[data-testid=spot-title]");
    this.list = el.querySelector("[data-testid=spot-list]");
    this.prev = el.querySelector("[data-testid=panel-prev]");
    this.next = el.querySelector("[data-testid=panel-next]");
    this.range = el.querySelector("[data-testid=panel-range]");
    el.querySelector("[data-testid=panel-close]").addEventListener("click", () => this.close());
    this.prev.addEventListener("click", () => this.page(this.offset - PANEL_PAGE));
    this.next.addEventListener("click", () => this.page(this.offset + PANEL_PAGE));
  }

  async open(spot) {
    if (!spot) return;
    this.spot = spot;
    this.opener = document.activeElement;
    this.el.hidden = false;
    this.title.textContent = t("spot.title-here", { n: spot.count }); // until the page names the place
    await this.page(0);
    this.el.querySelector("[data-testid=panel-close]").focus();
  }

  async page(offset) {
    this.offset = Math.max(0, offset);
    const res = await fetch(this.query({ bbox: this.spot.bbox, limit: PANEL_PAGE + 1, offset: this.offset }));
    if (!res.ok) return;
    const fc = await res.json();
    const features = fc.features.slice(0, PANEL_PAGE);
    // Named after the place most of them share.
    const names = new Map();
    for (const f of features) {
      const name = placeName(f.properties.place_name, f.properties.place_name_ar);
      if (name) names.set(name, (names.get(name) || 0) + 1);
    }
    const place = [...names].sort((a, b) => b[1] - a[1])[0]?.[0];
    const when = this.window();
    const title = place ? t("spot.title-at", { n: this.spot.count, place }) : t("spot.title-here", { n: this.spot.count });
    this.title.textContent = when ? t("spot.title-when", { title, when }) : title;
    this.list.replaceChildren(...features.map(this.row));
    this.prev.hidden = this.offset === 0;
    this.next.hidden = fc.features.length <= PANEL_PAGE;
    this.range.textContent = t("spot.range", { from: this.offset + 1, to: this.offset + features.length, n: this.spot.count });
  }

  close() {
    this.el.hidden = true;
    if (this.opener && document.contains(this.opener)) this.opener.focus();
  }
}
