// PhotoList is the explorer's list: the photos in view and in the window,
// newest first, a page at a time from the API, following the map after a
// short pause; and, apart, the photos not on the map.

import { t } from "./i18n.js";
import { h } from "./filters.js";
import { row } from "./list.js";

const PAGE = 50; // photos a list shows at a time

export class PhotoList {
  // els: list, scope, pager, unplaced, unplacedList, side. ex: the
  // explorer, which knows the filters, the window, the map and the count.
  constructor(els, ex) {
    Object.assign(this, els);
    this.ex = ex;
    this.timer = null;
    this.seq = 0;
  }

  // schedule redraws both lists after a short pause (the map may still be
  // moving).
  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.update(0); this.updateUnplaced(0); }, 150);
  }

  // kept says the list keeps its rows though the map moved to show one
  // of them; the next move of the map brings it back to the view.
  kept() {
    clearTimeout(this.timer);
    this.seq++;
    this.scope.hidden = false;
    this.scope.textContent = t("list.kept");
  }

  // showNothing empties both lists (the count says why).
  showNothing() {
    clearTimeout(this.timer);
    this.seq++;
    this.list.replaceChildren();
    this.scope.hidden = true;
    this.pager?.replaceChildren();
    this.unplaced.hidden = true;
  }

  async update(offset) {
    const ex = this.ex;
    const seq = ++this.seq;
    const res = await fetch(ex.cfg.listUrl + ex.query({ bbox: ex.map.bbox(), order: "newest", limit: PAGE + 1, offset }));
    if (!res.ok || seq !== this.seq) return;
    const fc = await res.json();
    const rows = fc.features.slice(0, PAGE).map((f) => row(f, ex.cfg.placeUrl, { onHover: (at) => ex.map.show(at), onSelect: (id, opts) => ex.select(id, true, opts) }));
    if (offset === 0) this.list.replaceChildren(...rows);
    else this.list.append(...rows);
    const inView = ex.serverSide ? null : ex.points.filter((p) => p.geometry && ex.inWindow(p) && ex.map.contains(p.lon, p.lat)).length;
    this.scope.hidden = false;
    this.scope.textContent = inView === null ? t("list.follows-map")
      : t("list.follows-map-n", { inView, n: ex.matching });
    if (this.pager) {
      // The server's pages list the whole selection; here a button adds
      // the next page of the photos in view.
      this.pager.replaceChildren();
      if (fc.features.length > PAGE) {
        const more = h("button", { type: "button", class: "button secondary", "data-testid": "more" }, t("list.more-in-view"));
        more.addEventListener("click", () => this.update(offset + PAGE));
        this.pager.append(more);
      }
    }
    this.markCurrent();
  }

  async updateUnplaced(offset) {
    const ex = this.ex;
    if (!ex.serverSide && ex.notOnMap === 0) {
      this.unplaced.hidden = true;
      return;
    }
    const res = await fetch(ex.cfg.listUrl + ex.query({ unplaced: "true", order: "newest", limit: PAGE + 1, offset }));
    if (!res.ok) return;
    const fc = await res.json();
    const rows = fc.features.slice(0, PAGE).map((f) => row(f, ex.cfg.placeUrl, { onSelect: null }));
    for (const r of rows) {
      const id = r.dataset.id;
      r.querySelector("[data-testid=placement]").textContent = t("placement.none");
      r.addEventListener("click", (ev) => { if (ev.target.closest("a")) return; ex.select(id, true); });
    }
    if (offset === 0) this.unplacedList.replaceChildren(...rows);
    else this.unplacedList.append(...rows);
    this.unplaced.hidden = fc.features.length === 0 && offset === 0;
    this.unplaced.querySelector("[data-testid=more-unplaced]")?.remove();
    if (fc.features.length > PAGE) {
      const more = h("button", { type: "button", class: "button secondary", "data-testid": "more-unplaced" }, t("list.more-unplaced"));
      more.addEventListener("click", () => this.updateUnplaced(offset + PAGE));
      this.unplaced.append(more);
    }
  }

  // markCurrent marks the chosen photo's row and scrolls the list's own
  // column to it, never the page.
  markCurrent() {
    for (const r of document.querySelectorAll("[data-testid=photo-row][aria-current]")) r.removeAttribute("aria-current");
    const id = this.ex.st.photo;
    const r = id && this.list.querySelector(`[data-id="${CSS.escape(id)}"]`);
    if (!r) return;
    r.setAttribute("aria-current", "true");
    const side = this.side;
    if (side.scrollHeight > side.clientHeight) {
      const top = r.offsetTop - side.offsetTop;
      if (top < side.scrollTop || top > side.scrollTop + side.clientHeight - r.offsetHeight) side.scrollTop = top - 40;
    }
  }
}
