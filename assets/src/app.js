// The pages' scripts: the explorer, the small maps of photo and place
// pages, and the review page.

import { t } from "./i18n.js";
import { placeMap } from "./map.js";
import { review, reviewFilters } from "./review.js";
import { Explorer } from "./explorer.js";
import { installStaticAPI, photoPage } from "./staticapi.js";
import { storyReader } from "./story.js";
import { storyEditor } from "./storyedit.js";
import { eventLinks } from "./eventlinks.js";

// A published site (syriamap publish) answers the pages' API requests
// from its own data files.
const manifest = document.getElementById("syriamap-static");
const staticAPI = manifest ? installStaticAPI(JSON.parse(manifest.textContent)) : null;
const photoRoot = document.getElementById("static-photo");
if (photoRoot) photoPage(photoRoot, staticAPI).catch((err) => {
  console.error(err);
  photoRoot.querySelector("[data-testid=map-status]").textContent = t("static.photo-failed", { why: err.message });
});

// The header's language and digits choices carry the page's state as it
// is when chosen: the explorer keeps its state in the address, which
// changes after the page was served.
for (const a of document.querySelectorAll("[data-testid=lang-switch], [data-testid=digits-switch]")) {
  a.addEventListener("click", () => {
    const to = new URL(a.href, location.href);
    const q = new URLSearchParams(location.search);
    q.delete("lang");
    q.delete("digits");
    for (const [k, v] of to.searchParams) q.set(k, v);
    to.search = q.toString().replaceAll("%2F", "/"); // the map's view reads as zoom/lat/lon
    a.href = to.href;
  });
}

for (const el of document.querySelectorAll("[data-testid=place-map]")) placeMap(el);
const reviewRoot = document.getElementById("review");
if (reviewRoot) review(reviewRoot);
const queueFilters = document.querySelector("[data-testid=review-filters]");
if (queueFilters) reviewFilters(queueFilters);

// A photo's conflict events, where an editor's forms decide them.
const events = document.querySelector("#events[data-testid=photo-events]");
if (events && events.querySelector("form")) eventLinks(events);

const storyRoot = document.getElementById("story");
if (storyRoot) storyReader(storyRoot);
const editorForm = document.getElementById("story-editor");
if (editorForm) storyEditor(editorForm);

const root = document.getElementById("explorer");
// (Built inside the promise, so that a failure to build is shown too.)
if (root) Promise.resolve().then(() => new Explorer(root).start()).catch((err) => {
  console.error(err);
  const s = document.querySelector("[data-testid=map-status]");
  if (s) s.textContent = t("explorer.map-failed", { why: err.message });
});
