// The filters, applied as they change, without reloading the page: the
// server's form (which works without JavaScript) is kept, and each
// <select multiple> of agencies, photographers, governorates and places
// becomes a list to search, with every value and its count under the
// other filters and the time window.

import { num, placeName, t } from "./i18n.js";
import { multiKeys, emptyFilters } from "./state.js";
import { fold } from "./fold.js";

const SHOWN = 200; // options drawn at once; typing narrows the rest

export class FilterForm {
  // form is the server's filter form; facetsUrl the facet counts' URL;
  // query(except) gives the query of the other filters and the window;
  // onChange(filters) is called when a filter changes, onWindow(from, to)
  // when the From and To fields do; onSubmit(filters), if given, when the
  // form is sent with every field valid (else a submit is a change).
  constructor(form, { facetsUrl, placesSearchUrl, query, onChange, onWindow, onClear, onSubmit }) {
    this.form = form;
    this.facetsUrl = facetsUrl;
    this.placesSearchUrl = placesSearchUrl;
    this.query = query;
    this.onChange = onChange;
    this.onWindow = onWindow;
    this.widgets = new Map();
    this.labels = new Map(); // value → label, per facet, as counted
    for (const label of form.querySelectorAll("label.facet")) {
      const w = new MultiSelect(label, this);
      this.widgets.set(w.name, w);
    }
    this.q = form.elements.namedItem("q");
    this.minConfidence = form.elements.namedItem("min_confidence");
    let typing = null;
    this.q.addEventListener("input", () => {
      clearTimeout(typing);
      typing = setTimeout(() => this.changed(), 400);
    });
    this.minConfidence.addEventListener("change", () => {
      const v = this.minConfidence.value.trim(), n = Number(v);
      if (this.fieldError(this.minConfidence, v !== "" && !(n >= 0 && n <= 1) ? t("filters.error.confidence") : "")) return;
      this.changed();
    });
    this.agreement = form.elements.namedItem("agreement");
    this.agreement.addEventListener("change", () => this.changed());
    // (A published site has no frames to filter by, and no field.)
    this.reuse = form.elements.namedItem("reuse");
    this.reuse?.addEventListener("change", () => this.changed());
    this.event = form.elements.namedItem("event");
    this.event?.addEventListener("change", () => this.changed());
    this.verified = form.elements.namedItem("verified");
    this.verified?.addEventListener("change", () => this.changed());
    for (const name of ["from", "to"]) {
      const input = form.elements.namedItem(name);
      input.addEventListener("change", () => {
        const v = input.value.trim();
        const bad = v !== "" && !validDate(v);
        if (this.fieldError(input, bad ? t("filters.error.date") : "")) return;
        this.onWindow(form.elements.namedItem("from").value, form.elements.namedItem("to").value);
      });
    }
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      if (!onSubmit) return this.changed();
      const bad = form.querySelector("[aria-invalid=true]");
      if (bad) bad.focus();
      else onSubmit(this.filters);
    });
    // Clear empties the filters and the window as one step of history.
    form.querySelector("[data-testid=clear]")?.addEventListener("click", (ev) => {
      ev.preventDefault();
      this.set(emptyFilters());
      onClear(this.filters);
    });
    document.addEventListener("pointerdown", (ev) => {
      for (const w of this.widgets.values()) if (!w.el.contains(ev.target)) w.close();
    });
  }

  // filters reads the form.
  get filters() {
    const f = emptyFilters();
    for (const [name, w] of this.widgets) f[name] = [...w.chosen];
    f.q = this.q.value.trim();
    f.min_confidence = this.minConfidence.value.trim();
    f.agreement = this.agreement.value;
    f.reuse = this.reuse?.value || "";
    f.event = this.event?.value || "";
    f.verified = this.verified?.value || "";
    return f;
  }

  // set fills the form from filters.
  set(filters) {
    for (const [name, w] of this.widgets) w.setChosen(filters[name] || []);
    this.q.value = filters.q || "";
    this.minConfidence.value = filters.min_confidence || "";
    this.agreement.value = filters.agreement || "";
    if (this.reuse) this.reuse.value = filters.reuse || "";
    this.setEvent(filters.event);
    if (this.verified) this.verified.value = ["1", "true"].includes(filters.verified) ? "1" : "";
  }

  // setEvent chooses the linked-event filter's value: an event's key (an
  // event popup's link, a shared address) is a choice of its own, as the
  // server writes it.
  setEvent(v = "") {
    if (!this.event) return;
    if (![...this.event.options].some((o) => o.value === v)) this.event.append(h("option", { value: v }, v));
    this.event.value = v;
  }

  // setWindow writes the window into the From and To fields.
  setWindow(from, to) {
    this.form.elements.namedItem("from").value = from;
    this.form.elements.namedItem("to").value = to;
  }

  // fieldError says what is wrong with a field's value next to it (or
  // clears it when message is ""), and reports whether there was
  // something wrong: the value is then not used.
  // (whole: the message is said as it is, a server's own sentence.)
  fieldError(input, message, whole = false) {
    const id = `${input.name}-error`;
    let note = this.form.querySelector(`[data-testid=${id}]`);
    if (!message) {
      input.removeAttribute("aria-invalid");
      if (note) note.remove();
      return false;
    }
    if (!note) {
      note = h("span", { class: "field-error", id, "data-testid": id, role: "alert" });
      input.after(note);
    }
    note.textContent = whole ? message : t("filters.error.not", { value: input.value.trim(), what: message });
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", id);
    return true;
  }

  changed() {
    for (const w of this.widgets.values()) w.stale = true;
    this.onChange(this.filters);
  }

  // windowMoved marks the counts as old: they are counted again when a
  // list is next opened.
  windowMoved() {
    for (const w of this.widgets.values()) w.stale = true;
  }
}

// MultiSelect is one facet: a button that opens a searchable list of
// check boxes, and the chosen values as chips that remove themselves.
class MultiSelect {
  constructor(label, form) {
    this.form = form;
    const select = label.querySelector("select");
    this.name = select.name;
    this.title = label.firstChild.textContent.trim();
    this.chosen = new Set([...select.selectedOptions].map((o) => o.value));
    this.names = new Map([...select.options].map((o) => [o.value, o.dataset.label ?? o.textContent]));
    this.values = null; // [{value, label, count}] once counted
    this.stale = true;

    const id = `facet-${this.name}`;
    this.el = h("div", { class: "facet-widget", "data-facet": this.name });
    const head = h("span", { class: "facet-title", id: `${id}-title` }, this.title);
    this.button = h("button", { type: "button", class: "facet-button", "aria-expanded": "false", "aria-controls": `${id}-pop`,
      "aria-labelledby": `${id}-title ${id}-button`, id: `${id}-button`, "data-testid": `facet-${this.name}` });
    this.pop = h("div", { class: "facet-pop", id: `${id}-pop`, role: "group", "aria-labelledby": `${id}-title`, hidden: "" });
    this.search = h("input", { type: "search", placeholder: t("filters.type-to-find"), "aria-label": t(`filters.find.${this.name}`), "data-testid": `facet-${this.name}-search` });
    this.status = h("p", { class: "muted facet-status", role: "status" });
    this.list = h("ul", { class: "facet-options", "data-testid": `facet-${this.name}-options` });
    this.pop.append(this.search, this.status, this.list);
    this.chips = h("ul", { class: "chips", "aria-label": t(`filters.chosen.${this.name}`) });
    this.el.append(head, this.button, this.pop, this.chips);
    label.replaceWith(this.el);

    this.button.addEventListener("click", () => (this.pop.hidden ? this.open() : this.close()));
    this.search.addEventListener("input", () => {
      this.draw();
      if (this.name === "place") this.spell();
    });
    this.el.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && !this.pop.hidden) {
        ev.stopPropagation();
        this.close();
        this.button.focus();
      }
    });
    this.list.addEventListener("change", (ev) => {
      const box = ev.target;
      if (box.checked) this.chosen.add(box.value);
      else this.chosen.delete(box.value);
      this.drawChosen();
      this.form.changed();
      this.stale = false; // its own counts do not depend on its choice
    });
    this.drawChosen();
  }

  setChosen(values) {
    this.chosen = new Set(values);
    this.drawChosen();
    if (!this.pop.hidden) this.draw();
  }

  async open() {
    this.pop.hidden = false;
    this.button.setAttribute("aria-expanded", "true");
    this.search.focus();
    if (this.stale || !this.values) await this.count();
    this.draw();
  }

  close() {
    if (this.pop.hidden) return;
    this.pop.hidden = true;
    this.button.setAttribute("aria-expanded", "false");
  }

  // count asks the server for every value with its count under the other
  // filters and the window.
  async count() {
    this.status.textContent = t("filters.counting");
    const url = this.form.facetsUrl + this.form.query(this.name, { field: this.name, limit: 100000 });
    try {
      const res = await fetch(url);
      if (!res.ok) throw new Error(t("common.server-answered", { status: String(res.status) }));
      const out = await res.json();
      this.values = out[{ agency: "agencies", photographer: "photographers", governorate: "governorates", place: "places" }[this.name]] || [];
      for (const v of this.values) {
        v.label = placeName(v.label, v.label_ar); // a place or governorate in the reader's language
        this.names.set(v.value, v.label || v.value);
      }
      this.stale = false;
      this.failed = false;
      this.status.textContent = "";
    } catch (err) {
      this.status.textContent = t("filters.counts-failed", { why: err.message });
      this.failed = true;
      this.values = this.values || [];
    }
  }

  // spell asks the gazetteer which places the search is a spelling of
  // (halab, حلب, Haleb are Aleppo), then lists them too.
  spell() {
    clearTimeout(this.spelling);
    const q = this.search.value.trim();
    this.spelled = null;
    if (q.length < 2 || !this.form.placesSearchUrl) return;
    this.spelling = setTimeout(async () => {
      try {
        const res = await fetch(`${this.form.placesSearchUrl}?q=${encodeURIComponent(q)}&limit=50&with_photos=true`);
        if (!res.ok || this.search.value.trim() !== q) return;
        this.spelled = new Set((await res.json()).map((p) => p.id));
        this.draw();
      } catch (err) {
        console.error(err);
      }
    }, 200);
  }

  // draw lists the values that match the search, chosen ones first.
  draw() {
    const needle = fold(this.search.value.trim());
    const counted = new Map((this.values || []).map((v) => [v.value, v]));
    const all = [...this.chosen].filter((v) => !counted.has(v)).map((v) => ({ value: v, label: this.names.get(v) || v, count: 0 }))
      .concat(this.values || []);
    const matches = all.filter((v) => !needle || fold(v.label || v.value).includes(needle) || (this.spelled && this.spelled.has(v.value)));
    matches.sort((a, b) => (this.chosen.has(b.value) - this.chosen.has(a.value)));
    const rows = matches.slice(0, SHOWN).map((v) => {
      const box = h("input", { type: "checkbox", value: v.value });
      box.checked = this.chosen.has(v.value);
      return h("li", {}, h("label", {}, box, h("span", { class: "facet-value", dir: "auto" }, v.label || v.value),
        h("span", { class: "facet-count" }, num(v.count))));
    });
    this.list.replaceChildren(...rows);
    if (!this.failed) {
      this.status.textContent = matches.length > SHOWN ? t("filters.too-many", { n: matches.length, shown: SHOWN })
        : matches.length === 0 ? t("filters.nothing") : t("filters.to-choose", { n: matches.length });
    }
  }

  drawChosen() {
    const n = this.chosen.size;
    this.button.textContent = n === 0 ? t("filters.all") : n === 1 ? this.names.get([...this.chosen][0]) || [...this.chosen][0] : t("filters.n-chosen", { n });
    this.chips.replaceChildren(...[...this.chosen].map((v) => {
      const name = this.names.get(v) || v;
      const x = h("button", { type: "button", class: "chip", "aria-label": t("filters.remove", { name }), title: t("filters.remove", { name }), dir: "auto" }, `${name} ×`);
      x.addEventListener("click", () => {
        this.chosen.delete(v);
        this.drawChosen();
        if (!this.pop.hidden) this.draw();
        this.form.changed();
      });
      return h("li", {}, x);
    }));
  }
}

// h makes an element with attributes and children (text nodes for
// strings: nothing is ever parsed as HTML).
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

export { multiKeys };

// validDate reports whether v is a date the filters take: YYYY, YYYY-MM
// or YYYY-MM-DD, a real day.
function validDate(v) {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(v);
  if (!m) return false;
  const y = Number(m[1]), mo = m[2] ? Number(m[2]) : 1, d = m[3] ? Number(m[3]) : 1;
  const t = new Date(Date.UTC(y, mo - 1, d));
  return mo >= 1 && mo <= 12 && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}
