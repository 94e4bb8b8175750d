// The story editor: the story's fields and its steps, each with a
// heading, Markdown text and what the map shows — chosen photos (ids or
// photo links, or those chosen in the explorer with "Add to story") or a
// saved explorer state (its link). Steps reorder by dragging and by
// their Move up / Move down buttons. Save sends the whole story; the
// server keeps each save in the story's history.

import { h } from "./filters.js";
import { dateText, digits, has, localized, t } from "./i18n.js";

// BASKET is where the explorer's "Add to story" keeps the photos chosen.
export const BASKET = "syriamap:story-photos";

export function basket() {
  try {
    return JSON.parse(localStorage.getItem(BASKET) || "[]");
  } catch {
    return [];
  }
}

export function addToBasket(id) {
  const ids = basket();
  if (!ids.includes(id)) ids.push(id);
  localStorage.setItem(BASKET, JSON.stringify(ids));
  return ids.length;
}

let uid = 0;

export function storyEditor(form) {
  const story = JSON.parse(form.dataset.story);
  const field = (label, input, hint) => {
    const id = `f${++uid}`;
    input.id = id;
    return h("div", { class: "field" }, h("label", { for: id }, label), input, hint ? h("p", { class: "muted hint" }, hint) : null);
  };
  const title = h("input", { type: "text", name: "title", required: "", "data-testid": "story-title" });
  title.value = story.title || "";
  const slug = h("input", { type: "text", name: "slug", pattern: "[a-z0-9]+(-[a-z0-9]+)*", "data-testid": "story-slug" });
  slug.value = story.slug || "";
  const summary = h("textarea", { name: "summary", rows: "2", "data-testid": "story-summary" });
  summary.value = story.summary || "";
  const status = h("select", { name: "status", "data-testid": "story-status" },
    h("option", { value: "draft" }, t("storyedit.draft")), h("option", { value: "published" }, t("storyedit.published")));
  status.value = story.status || "draft";
  const list = h("ol", { class: "story-edit-steps", "data-testid": "story-edit-steps" });
  const message = h("p", { class: "muted", role: "status", "data-testid": "story-message" });
  const add = h("button", { type: "button", class: "button secondary", "data-testid": "add-step" }, t("storyedit.add-step"));
  const save = h("button", { type: "submit", "data-testid": "save-story" }, t("storyedit.save"));
  const reader = form.dataset.readerUrl ? h("a", { href: localized(form.dataset.readerUrl), "data-testid": "preview-story" }, t("storyedit.preview")) : null;
  form.replaceChildren(
    field(t("storyedit.title"), title), field(t("storyedit.address"), slug, t("storyedit.address-hint")),
    field(t("storyedit.summary"), summary), field(t("storyedit.status"), status),
    h("h2", {}, t("story.steps")), list, add, h("div", { class: "actions" }, save, reader), message);

  const renumber = () => [...list.children].forEach((li, i) => {
    li.querySelector("legend").textContent = t("storyedit.step-n", { n: i + 1 });
    li.querySelector("[data-testid=step-up]").disabled = i === 0;
    li.querySelector("[data-testid=step-down]").disabled = i === list.children.length - 1;
  });

  const stepItem = (step) => {
    const heading = h("input", { type: "text", "data-testid": "step-heading" });
    heading.value = step.heading || "";
    const text = h("textarea", { rows: "4", "data-testid": "step-text" });
    text.value = step.text || "";
    const kind = `k${++uid}`;
    const byPhotos = h("input", { type: "radio", name: kind, value: "photos", "data-testid": "step-kind-photos" });
    const byState = h("input", { type: "radio", name: kind, value: "state", "data-testid": "step-kind-state" });
    (step.state ? byState : byPhotos).checked = true;
    const photos = h("textarea", { rows: "3", "data-testid": "step-photos" });
    photos.value = (step.photos || []).map((p) => p.id).join("\n");
    const fromBasket = h("button", { type: "button", class: "button secondary small", "data-testid": "step-add-chosen" });
    const chosenLabel = () => { fromBasket.textContent = t("storyedit.add-chosen", { n: basket().length }); };
    chosenLabel();
    fromBasket.addEventListener("click", () => {
      const have = new Set(idsOf(photos.value));
      const more = basket().filter((id) => !have.has(id));
      photos.value = [...have, ...more].join("\n");
      localStorage.removeItem(BASKET);
      chosenLabel();
    });
    window.addEventListener("storage", chosenLabel);
    const state = h("input", { type: "text", inputmode: "url", "data-testid": "step-state", placeholder: t("storyedit.state-placeholder"), dir: "ltr" });
    state.value = step.state ? `${new URL(form.dataset.explorerUrl, location.href).href}?${step.state}` : "";
    const highlight = h("input", { type: "text", "data-testid": "step-highlight" });
    highlight.value = step.highlight || "";
    const up = h("button", { type: "button", class: "button secondary small", "data-testid": "step-up" }, t("storyedit.move-up"));
    const down = h("button", { type: "button", class: "button secondary small", "data-testid": "step-down" }, t("storyedit.move-down"));
    const remove = h("button", { type: "button", class: "button secondary small", "data-testid": "step-remove" }, t("storyedit.remove"));
    const li = h("li", { class: "story-edit-step", draggable: "true", "data-testid": "edit-step" },
      h("fieldset", {}, h("legend", {}, t("storyedit.step")),
        h("span", { class: "drag", "aria-hidden": "true", title: t("storyedit.drag") }, "⠿"),
        field(t("storyedit.heading"), heading), field(t("storyedit.text"), text, t("storyedit.text-hint")),
        h("div", { class: "field", role: "radiogroup", "aria-label": t("storyedit.map-shows") },
          h("label", {}, byPhotos, " " + t("storyedit.by-photos")), h("label", {}, byState, " " + t("storyedit.by-state"))),
        field(t("storyedit.photos"), photos, t("storyedit.photos-hint")), fromBasket,
        field(t("storyedit.state"), state), field(t("storyedit.highlight"), highlight),
        h("div", { class: "actions" }, up, down, remove)));
    // check says what keeps the step from being saved ("" for nothing):
    // a step of chosen photos with none, or of a saved view with no link.
    li.check = (n) => {
      if (byPhotos.checked && idsOf(photos.value).length === 0) return { message: t("storyedit.no-photos", { n }), field: photos };
      if (byState.checked && !state.value.trim()) return { message: t("storyedit.no-state", { n }), field: state };
      return null;
    };
    li.read = () => {
      const s = { heading: heading.value, text: text.value, highlight: highlight.value.trim() };
      if (byState.checked) s.state = state.value.trim();
      else s.photos = idsOf(photos.value).map((id) => ({ id }));
      return s;
    };
    up.addEventListener("click", () => { li.previousElementSibling?.before(li); renumber(); up.focus(); });
    down.addEventListener("click", () => { li.nextElementSibling?.after(li); renumber(); down.focus(); });
    remove.addEventListener("click", () => { li.remove(); renumber(); add.focus(); });
    li.addEventListener("dragstart", (ev) => { ev.dataTransfer.setData("text/plain", ""); li.classList.add("dragging"); });
    li.addEventListener("dragend", () => { li.classList.remove("dragging"); renumber(); });
    return li;
  };
  list.addEventListener("dragover", (ev) => {
    const moving = list.querySelector(".dragging");
    const over = ev.target.closest("li");
    if (!moving || !over || over === moving) return;
    ev.preventDefault();
    const r = over.getBoundingClientRect();
    if (ev.clientY > r.top + r.height / 2) over.after(moving);
    else over.before(moving);
  });

  for (const s of story.steps || []) list.append(stepItem(s));
  renumber();
  add.addEventListener("click", () => {
    const li = stepItem({});
    list.append(li);
    renumber();
    li.querySelector("[data-testid=step-heading]").focus();
  });

  // The version the editor opened (an ETag), sent as If-Match: a save over
  // another editor's newer one is refused (412) and said, with the choice
  // to keep this one or reload theirs.
  let version = form.dataset.version || "";
  const send = async (body, warnings) => {
    message.textContent = t("storyedit.saving");
    const headers = { "Content-Type": "application/json", "X-CSRF-Token": form.dataset.csrf };
    if (version) headers["If-Match"] = version;
    const res = await fetch(form.dataset.saveUrl, { method: form.dataset.method, body: JSON.stringify(body), headers });
    const out = await res.json().catch(() => ({}));
    if (res.status === 412 && out.current) {
      const c = out.current;
      message.replaceChildren(staleText(c), " ");
      const keep = document.createElement("button");
      keep.type = "button";
      keep.className = "button";
      keep.dataset.testid = "story-keep-mine";
      keep.textContent = t("stale.keep");
      keep.addEventListener("click", () => {
        version = c.etag;
        send(body, warnings);
      });
      const reload = document.createElement("button");
      reload.type = "button";
      reload.className = "button secondary";
      reload.dataset.testid = "story-reload";
      reload.textContent = t("storyedit.reload");
      reload.addEventListener("click", () => location.reload());
      message.append(keep, " ", reload);
      return;
    }
    if (!res.ok) {
      message.textContent = t("storyedit.not-saved", { why: out.error || res.statusText });
      return;
    }
    version = res.headers.get("ETag") || version;
    if (form.dataset.method === "POST" || out.story.slug !== story.slug) {
      location.assign(localized(out.edit_url));
      return;
    }
    message.textContent = [t("storyedit.saved-at", { time: digits(new Date().toLocaleTimeString("en-GB")) }), ...warnings].join(" ");
  };
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    // A step that shows nothing of its own (a text between two others) is
    // saved, but never silently: the message names it and its field is
    // marked.
    const warnings = [];
    for (const [i, li] of [...list.children].entries()) {
      for (const f of li.querySelectorAll("[aria-invalid]")) f.removeAttribute("aria-invalid");
      const problem = li.check(i + 1);
      if (problem) {
        warnings.push(problem.message);
        problem.field.setAttribute("aria-invalid", "true");
      }
    }
    const body = { slug: slug.value.trim(), title: title.value, summary: summary.value, status: status.value, steps: [...list.children].map((li) => li.read()) };
    await send(body, warnings);
  });
}

// idsOf reads photo ids, or the ids of photo page links, one per line.
function idsOf(text) {
  return text.split(/\s+/).map((s) => s.trim()).filter(Boolean).map((s) => {
    const m = /\/photos\/([^/?#]+)/.exec(s) || /[?&]id=([^&#]+)/.exec(s);
    return m ? decodeURIComponent(m[1]) : s;
  });
}

// staleText says a refused save's cause (a 412's "current"): who saved
// the story after the editor opened it, when, in the reader's words and
// digits, and what that save changed (story.Changes: "title", "step:2").
export function staleText(c) {
  const did = t(has(`storyedit.did.${c.action}`) ? `storyedit.did.${c.action}` : "storyedit.did.saved");
  const iso = c.at || "";
  const at = /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? t("history.at", { date: dateText(iso.slice(0, 10), "day"), time: digits(iso.slice(11, 16)) }) : iso;
  const text = t("storyedit.stale", { by: c.by || "?", did, at });
  const what = (c.changed || []).map((k) => (k.startsWith("step:") ? t("storyedit.changed.step", { n: digits(k.slice(5)) }) : t(`storyedit.changed.${k}`)));
  return what.length ? `${text} ${t("storyedit.stale-changed", { what: what.join(t("common.list-sep")) })}` : text;
}
