// Lists of photos (the side list, the photos not on the map, a stacked
// spot's panel) and the card of one photo. Every word is the catalogue's
// (i18n.js), written as the server's pages write it: the pages and the
// map say the same thing, in the reader's language.

import { h } from "./filters.js";
import { dateText, localized, placeName, placementText, t } from "./i18n.js";

// picture is a photo's image as every page shows it: one an editor marked
// graphic is blurred until the reader ticks "show" (a checkbox and the
// style sheet, as the server's pages write it: views' graphic).
function picture(p, img) {
  if (!p.graphic) return img;
  return h("span", { class: "graphic", "data-testid": "graphic" },
    h("label", { class: "graphic-show" }, h("input", { type: "checkbox", "data-testid": "show-graphic" }), " " + t("harm.show-graphic")), img);
}

// ours reports whether an image is this site's: one held elsewhere (an
// image_url a photo was imported with) is linked, never loaded, so that
// no reader's visit is reported to that site (the page's policy would
// refuse it anyway).
function ours(u) {
  try {
    return new URL(u, location.href).origin === location.origin;
  } catch {
    return false;
  }
}

// row is one photo of a list, from its GeoJSON feature.
export function row(f, placeUrl, { onHover, onSelect } = {}) {
  const p = f.properties;
  const li = h("li", { "data-testid": "photo-row", "data-id": f.id });
  if (p.thumbnail_url) li.append(picture(p, h("img", { src: p.thumbnail_url, alt: "", loading: "lazy" })));
  const meta = h("div", { class: "meta" }, h("span", { "data-testid": "date" }, dateText(p.date, p.date_precision) || t("photo.undated")));
  const place = placeName(p.place_name, p.place_name_ar);
  if (place) {
    meta.append(" · ", p.place_id ? h("a", { href: localized(placeUrl.replace("{id}", encodeURIComponent(p.place_id))), "data-testid": "place", dir: "auto" }, place)
      : h("span", { "data-testid": "place", dir: "auto" }, place));
  }
  meta.append(h("span", { class: `badge ${p.placement_class}`, "data-testid": "placement" }, placementText(p)));
  const caption = h("a", { href: localized(p.url), "data-testid": "caption" }, p.caption);
  const body = h("div", {}, meta, h("p", { class: "caption", dir: "auto" }, caption));
  const credit = [p.photographer, p.agency].filter(Boolean).join(" / ");
  if (credit) body.append(h("div", { class: "meta", "data-testid": "credit", dir: "auto" }, credit));
  li.append(body);
  if (onSelect && f.geometry) {
    const show = h("button", { type: "button", class: "link-button", "data-testid": "show-on-map" }, t("list.show-on-map"));
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
  const image = p.thumbnail_url || p.image_url;
  if (image && ours(image)) box.append(picture(p, h("img", { src: image, alt: "" })));
  else if (image) box.append(h("p", { class: "remote-image" }, h("a", { href: image, rel: "noreferrer noopener" }, t("photo.remote-image", { host: new URL(image, location.href).host }))));
  box.append(h("p", { class: "popup-caption", dir: "auto" }, p.caption));
  const credit = [p.photographer, p.agency].filter(Boolean).join(" / ");
  box.append(h("p", { class: "meta" }, h("span", { "data-testid": "popup-date" }, dateText(p.date, p.date_precision) || t("photo.undated")),
    credit ? [" · ", h("bdi", {}, credit)] : ""));
  const where = h("p", { class: "meta" });
  const place = placeName(p.place_name, p.place_name_ar);
  if (place && p.place_id) where.append(h("a", { href: localized(placeUrl.replace("{id}", encodeURIComponent(p.place_id))), dir: "auto" }, place));
  else where.append(place || (f.geometry ? t("photo.at-a-point") : t("photo.not-placed")));
  where.append(h("span", { class: `badge ${p.placement_class}` }, placementText(p)));
  box.append(where);
  if (p.mention) box.append(h("p", { class: "meta" }, t("list.read-from") + " " + t("common.open-quote"), h("mark", {}, h("bdi", {}, p.mention)), t("common.close-quote")));
  if (p.note) box.append(h("p", { class: "meta note", lang: "en", dir: "ltr" }, p.note));
  const links = h("p", { class: "popup-links" }, h("a", { href: localized(p.url) }, t("review.photo-page")));
  if (others > 0) {
    const more = h("button", { type: "button", class: "link-button", "data-testid": "others-here" },
      t("list.others-here", { n: others }));
    more.addEventListener("click", () => onOthers && onOthers());
    links.append(" · ", more);
  }
  box.append(links);
  return box;
}
