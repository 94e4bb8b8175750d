// The upload page (editors): files or whole folders dropped or chosen —
// caption files (TXT, CSV, JSON Lines) and JPEGs — sent to the server by
// the tus protocol (tus-js-client against tusd: a dropped connection
// resumes where the server says it got), with progress per file and in
// all; then imported (POST /api/imports), and what the import did, file
// by file, as `syriamap import` says it. A bundle of its own: only this
// page loads it.

import * as tus from "tus-js-client";
import { localized, t } from "./i18n.js";

const KINDS = /\.(txt|text|csv|jsonl|ndjson|jpe?g)$/i;

function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

// filesOf lists the files a drop holds, folders walked (a folder's
// entries read in batches until none are left).
async function filesOf(dt) {
  const entries = [...(dt.items || [])].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  if (!entries.length) return [...dt.files];
  const out = [];
  const walk = async (entry) => {
    if (entry.isFile) out.push(await new Promise((ok, fail) => entry.file(ok, fail)));
    else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
        if (!batch.length) break;
        for (const e of batch) await walk(e);
      }
    }
  };
  for (const e of entries) await walk(e);
  return out;
}

export function uploadPage(root) {
  const csrf = root.dataset.csrf;
  const headers = csrf ? { "X-CSRF-Token": csrf } : {};
  const zone = root.querySelector("[data-testid=drop-zone]");
  const input = root.querySelector("[data-testid=upload-files]");
  const folder = root.querySelector("[data-testid=upload-folder]");
  const list = root.querySelector("[data-testid=upload-list]");
  const overall = root.querySelector("[data-testid=upload-progress]");
  const status = root.querySelector("[data-testid=upload-status]");
  const summary = root.querySelector("[data-testid=upload-summary]");
  const dateInput = root.querySelector("[data-testid=upload-date]");

  const send = async (files) => {
    // The photos' date, checked before anything is sent.
    if (dateInput && !dateInput.checkValidity()) {
      status.textContent = t("upload.date-bad");
      dateInput.focus();
      return;
    }
    const skipped = files.filter((f) => !KINDS.test(f.name));
    files = files.filter((f) => KINDS.test(f.name));
    list.replaceChildren();
    summary.replaceChildren();
    const skippedNames = skipped.map((f) => f.webkitRelativePath || f.name);
    if (!files.length) {
      // Nothing to send: the summary says what was left out, and why.
      showSummary({ files: [], skipped: skippedNames.map((name) => ({ name })), counts: { imported: 0, refused: 0, skipped: skipped.length } });
      return;
    }
    const total = files.reduce((n, f) => n + f.size, 0);
    const sent = new Array(files.length).fill(0);
    overall.max = total;
    overall.value = 0;
    overall.hidden = false;
    status.textContent = t("upload.sending", { n: files.length });
    const rows = files.map((f, i) => {
      const li = el("li", { "data-testid": "upload-file" });
      // Labelled by the file's name, shown beside it (a name is data,
      // not words of the page's language).
      const bar = el("progress", { max: String(f.size), value: "0", "aria-labelledby": `upload-file-${i}` });
      li.append(el("bdi", { id: `upload-file-${i}` }, f.webkitRelativePath || f.name), " ", bar);
      list.append(li);
      return { li, bar };
    });
    const ids = await Promise.all(files.map((f, i) => new Promise((ok, fail) => {
      const up = new tus.Upload(f, {
        endpoint: root.dataset.uploadsUrl, headers, chunkSize: 8 << 20, retryDelays: [0, 1000, 3000, 5000, 10000],
        metadata: { filename: f.name }, removeFingerprintOnSuccess: true, onShouldRetry: transient,
        onProgress: (done) => {
          rows[i].bar.value = done;
          sent[i] = done;
          overall.value = sent.reduce((a, b) => a + b, 0);
        },
        onError: fail,
        onSuccess: () => ok(up.url.split("/").pop()),
      });
      // A file sent before and cut off goes on where it stopped.
      up.findPreviousUploads().then((prev) => {
        if (prev.length) up.resumeFromPreviousUpload(prev[0]);
        up.start();
      });
    }).catch((err) => { rows[i].li.append(" ", el("span", { class: "error" }, String(err.message || err))); return null; })));
    const done = ids.filter(Boolean);
    if (!done.length) { status.textContent = t("upload.failed"); return; }
    status.textContent = t("upload.importing");
    const res = await fetch(root.dataset.importsUrl, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify({ uploads: done, skipped: skippedNames, date: dateInput ? dateInput.value.trim() : "" }) });
    const body = await res.json();
    if (!res.ok) { status.textContent = body.error || res.statusText; return; }
    let job = body;
    const where = res.headers.get("Location");
    // A job whose server stopped is run again by another; one that
    // failed each time says why.
    while (job.state !== "done" && job.state !== "failed") {
      await new Promise((r) => setTimeout(r, 500));
      job = await (await fetch(where, { headers })).json();
    }
    if (job.state === "failed") { status.textContent = job.error || t("upload.failed"); return; }
    showSummary(job);
  };

  // transient says whether a failed request is worth sending again: a
  // dropped connection or a server error is, but not a refusal that says
  // why (a name, a budget, no room on the disk, no store of originals):
  // retrying it only delays the message.
  const transient = (err) => {
    const status = err.originalResponse ? err.originalResponse.getStatus() : 0;
    return status === 0 || status === 409 || status === 423 || (status >= 500 && status !== 503 && status !== 507);
  };

  // showSummary says what the import did, first what went wrong: how
  // many files were imported, refused and skipped; the refused ones
  // together, each with why; the skipped ones by name; what an imported
  // file warns of; the reused frames, a link to the review filter; then
  // each imported file's counts and the upload's photos.
  const showSummary = (job) => {
    const s = job.summary || {};
    const c = job.counts || {};
    if (job.summary) status.textContent = t("upload.done", { added: s.Added || 0, updated: s.Updated || 0, unchanged: s.Unchanged || 0, unplaced: s.Unplaced || 0 });
    summary.append(el("p", { "data-testid": "upload-outcome", class: "upload-outcome" },
      t("upload.outcome", { imported: c.imported || 0, photos: s.Added || 0, refused: c.refused || 0, skipped: c.skipped || 0 })));
    const files = job.files || [];
    const refused = files.filter((f) => f.state === "refused");
    if (refused.length) {
      const ul = el("ul", { "data-testid": "upload-refused", class: "upload-refused", "aria-labelledby": "upload-refused-head" });
      for (const f of refused) {
        const li = el("li", { "data-testid": "summary-file", "data-state": f.state });
        li.append(el("bdi", {}, f.name), " — ", el("span", { class: "error", lang: "en", dir: "ltr" }, f.error));
        ul.append(li);
      }
      summary.append(el("h2", { id: "upload-refused-head" }, t("upload.refused-head")), ul);
    }
    if (job.skipped?.length) {
      const ul = el("ul", { "data-testid": "upload-skipped", "aria-labelledby": "upload-skipped-head" });
      for (const f of job.skipped) {
        const li = el("li");
        li.append(el("bdi", {}, f.name), " — ", t("upload.skipped-why", { captions: ".txt, .csv, .jsonl", photos: ".jpg" }));
        ul.append(li);
      }
      summary.append(el("h2", { id: "upload-skipped-head" }, t("upload.skipped-head")), ul);
    }
    const warnings = files.flatMap((f) => f.warnings || []);
    if (warnings.length) {
      const ul = el("ul", { "data-testid": "upload-warnings", "aria-labelledby": "upload-warnings-head" });
      for (const w of warnings) ul.append(el("li", { lang: "en", dir: "ltr" }, w));
      summary.append(el("h2", { id: "upload-warnings-head" }, t("upload.warnings-head")), ul);
    }
    // Frames the archive already held, found as they arrived.
    if (s.Conflicts) {
      const p = el("p", {}, t("upload.conflicts", { n: s.Conflicts }) + " ");
      p.append(el("a", { href: root.dataset.reusedUrl, "data-testid": "upload-reused" }, t("upload.reused-link")));
      summary.append(p);
    }
    const imported = files.filter((f) => f.state !== "refused");
    if (imported.length) {
      const ul = el("ul");
      for (const f of imported) {
        const li = el("li", { "data-testid": "summary-file", "data-state": f.state });
        li.append(el("bdi", {}, f.name), " — ");
        if (f.result) li.append(t("upload.file-result", { added: f.result.Added, updated: f.result.Updated, unchanged: f.result.Unchanged }));
        else li.append(t("upload.file-done"));
        ul.append(li);
      }
      summary.append(el("h2", {}, t("upload.imported-head")), ul);
    }
    if (job.new_photos > 0) {
      const a = el("a", { href: root.dataset.reviewUrl, "data-testid": "review-new" }, t("upload.review-new", { n: job.new_photos }));
      summary.append(el("p", {}, ""), a);
    }
    // The photos of this upload, each to its review page.
    if (job.photos?.length) {
      summary.append(el("h2", {}, t("upload.photos")));
      const ol = el("ol", { "data-testid": "upload-photos" });
      for (const p of job.photos) {
        const li = el("li");
        li.append(el("a", { href: localized(root.dataset.reviewPhotoUrl.replace("ID", encodeURIComponent(p.id))), dir: "auto" }, p.caption));
        ol.append(li);
      }
      summary.append(ol);
    }
    status.focus();
  };

  input.addEventListener("change", () => send([...input.files]).catch((err) => { status.textContent = String(err.message || err); }));
  folder.addEventListener("change", () => send([...folder.files]).catch((err) => { status.textContent = String(err.message || err); }));
  for (const ev of ["dragenter", "dragover"]) zone.addEventListener(ev, (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    filesOf(e.dataTransfer).then(send).catch((err) => { status.textContent = String(err.message || err); });
  });
  root.dataset.ready = "1";
}

const root = document.getElementById("upload");
if (root) uploadPage(root);
