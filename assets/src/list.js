// Lists of photos (the side list, the photos not on the map, a stacked
// spot's panel) and the card of one photo. Every word they show comes
// from the server (date_text, placement_label): the pages and the map say
// the same thing.

import { h } from "./filters.js";

// row is one photo of a list, from its GeoJSON feature.
export function row(f, placeUrl, { onHover, onSelect } = {}) {
  const p = f.properties;
  const li = h("li", { "data-testid": "photo-row", "data-id": f.id });
  if (p.thumbnail_url) li.append(h("img", { src: p.thumbnail_url, alt: "", loading: "lazy" }));
  const meta = h("div", { class: "meta" }, h("span", { "data-testid": "date" }, p.date_text || "undated"));
  if (p.place_name) {
    meta.append(" · ", p.place_id ? h("a", { href: placeUrl.replace("{id}", encodeURIComponent(p.place_id)), "data-testid": "place" }, p.place_name)
      : h("span", { "data-testid": "place" }, p.place_name));
  }
  meta.append(h("span", { class: `badge ${p.placement_class}`, "data-testid": "placement" }, p.placement_label));
  const caption = h("a", { href: p.url, "data-testid": "caption" }, p.caption);
  const body = h("div", {}, meta, h("p", { class: "caption", dir: "auto" }, caption));
  const credit = [p.photographer, p.agency].filter(Boolean).join(" / ");
  if (credit) body.append(h("div", { class: "meta", "data-testid": "credit" }, credit));
  li.append(body);
  if (onSelect && f.geometry) {
    const show = h("button", { type: "button", class: "link-button", "data-testid": "show-on-map" }, "Show on the map");
    show.addEventListener("click", () => onSelect(f.id, { reveal: true }));
    body.append(show);
  }
  if (onHover) {
    const at = f.geometry ? { lon: f.geometry.coordinates[0], lat: f.geometry.coordinates[1] } : null;
    li.addEventListener("mouseenter", () => onHover(at));
    li.addEventListener("mouseleave", () => onHover(null));
    li.addEventListener("focusin", () => onHover(at));
  }
  return li;
}

// card is a photo's details, for the map's popup and the phone's sheet:
// the picture, the caption, when, by whom, where and how sure, the words
// the place was read from, and how many other photos share its point.
export function card(f, placeUrl, { others = 0, onOthers } = {}) {
  const p = f.properties;
  const box = h("div", { class: "popup", "data-testid": "popup" });
  if (p.thumbnail_url || p.image_url) box.append(h("img", { src: p.thumbnail_url || p.image_url, alt: "" }));
  box.append(h("p", { class: "popup-caption", dir: "auto" }, p.caption));
  const credit = [p.photographer, p.agency].filter(Boolean).join(" / ");
  box.append(h("p", { class: "meta" }, h("span", { "data-testid": "popup-date" }, p.date_text || "undated"), credit ? ` · ${credit}` : ""));
  const where = h("p", { class: "meta" });
  if (p.place_name && p.place_id) where.append(h("a", { href: placeUrl.replace("{id}", encodeURIComponent(p.place_id)) }, p.place_name));
  else where.append(p.place_name || (f.geometry ? "At a point, no named place" : "Not placed"));
  where.append(h("span", { class: `badge ${p.placement_class}` }, p.placement_label));
  box.append(where);
  if (p.mention) box.append(h("p", { class: "meta" }, "Read from “", h("mark", {}, h("bdi", {}, p.mention)), "”"));
  if (p.note) box.append(h("p", { class: "meta note" }, p.note));
  const links = h("p", { class: "popup-links" }, h("a", { href: p.url }, "Photo page"));
  if (others > 0) {
    const more = h("button", { type: "button", class: "link-button", "data-testid": "others-here" },
      `${others.toLocaleString("en")} other photo${others === 1 ? "" : "s"} here`);
    more.addEventListener("click", () => onOthers && onOthers());
    links.append(" · ", more);
  }
  box.append(links);
  return box;
}
