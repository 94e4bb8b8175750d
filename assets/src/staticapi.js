// The read API of a published site (syriamap publish): no server answers
// there, so the page answers its own requests for api/… from the site's
// data files, named by the manifest the page carries (the JSON script
// #syriamap-static). The explorer, its filters and lists run unchanged:
// they fetch the same URLs and get the same JSON, counted by the same
// rules as the server's (a window admits a photo whose dated period
// overlaps it; a facet is counted without its own choice). Downloads are
// made in the page.
//
// Data files are gzipped and decompressed here (DecompressionStream), so
// that any static host serves them as they are.

// The read rules the server states as data (internal/http/web SiteRules)
// and the rules ported from its code (siterules.js, search.js).
import { rules, APIError, checkParams, intParam, laterLabel, parseFilter, utf8Length, windowOf, overlaps } from "./siterules.js";
import { evaluate, searchAgency, searchTree, treeWords, widen, widenedTree } from "./search.js";
import { dateText, placeName, t } from "./i18n.js";
import { FileSource, PMTiles } from "pmtiles";
import { VectorTile } from "@mapbox/vector-tile";
import Pbf from "pbf";
import { card } from "./list.js";
import { placeMap } from "./map.js";
import { h } from "./filters.js";
import { makeFold, searchPlaces } from "./placesearch.js";
import { parseDay, parseMonth, firstDay, lastDay } from "./months.js";

const MULTI = ["agency", "photographer", "place", "governorate", "agreement"];
const MAX_LABELS = rules.max_labels; // the server's (web.MaxLabels)
// The filters that are not the window: with none of them set, a large
// site answers from its tiles and counts without the list of all photos.
const NARROWING = [...MULTI, "q", "min_confidence", "unplaced", "verified", "event"];
const narrows = (q, but = "") => NARROWING.some((k) => k !== but && q.get(k));
const FACET_KEYS = rules.facet_keys;
const CLUSTER_PIXELS = rules.cluster_pixels; // the server's cluster cells (web.ClusterPixels)
// SCAN_PHOTOS bounds how many photos (in chunks of about 500, newest
// first) a large site's list reads past its page's start to fill a page
// of the photos in view: about 400 KB at most.
const SCAN_PHOTOS = 2000;

// dayOf reads YYYY, YYYY-MM or YYYY-MM-DD as its first or last day
// (YYYYMMDD; a month's last is its 31st, as the explorer counts), or null.
function dayOf(v, last) {
  const day = parseDay((v || "").trim());
  if (day !== null) return day;
  const m = parseMonth((v || "").trim(), last);
  return m === null ? null : last ? lastDay(m) : firstDay(m);
}

// windowOfQuery is the window of a query checkParams let through: its
// first and last days as the server reads them (photo.Window), or null.
const windowOfQuery = (q) => windowOf(parseFilter(q));

const pad = (n) => String(n).padStart(2, "0");
const monthBin = (p) => (p.from % 10000 === 101 && p.to % 10000 === 1231 ? String(Math.floor(p.from / 10000))
  : `${Math.floor(p.from / 10000)}-${pad(Math.floor(p.from / 100) % 100)}`);
const dayBin = (d) => `${Math.floor(d / 10000)}-${pad(Math.floor(d / 100) % 100)}-${pad(d % 100)}`;

export class StaticAPI {
  // base is the site's root; its manifest (site.json) names the data.
  constructor(base) {
    this.base = base;
    this.cache = new Map();
    this.days = new Map(); // photo id → first day, from tiles and chunks read
    this.ready = nativeFetch(new URL("site.json", base), { cache: "no-cache" }).then((res) => {
      if (!res.ok) throw new Error(t("static.host-answered", { path: "site.json", status: String(res.status) }));
      return res.json();
    }).then((m) => { this.m = m; });
  }

  // load reads a data file once, decompressing it unless the host did.
  load(path, as = "json") {
    if (!this.cache.has(path)) {
      this.cache.set(path, (async () => {
        const res = await nativeFetch(new URL(path, this.base));
        if (!res.ok) throw new Error(t("static.host-answered", { path, status: String(res.status) }));
        let bytes = new Uint8Array(await res.arrayBuffer());
        if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
          bytes = new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
        }
        const text = new TextDecoder().decode(bytes);
        return as === "json" ? JSON.parse(text) : text;
      })());
    }
    return this.cache.get(path);
  }

  // photos are the published photos as objects, in the lists' order
  // (newest first): k is a photo's number, its place in the chunks.
  async photos() {
    if (!this.rows) {
      const d = await this.load(this.m.points);
      // The governorates' rows are [name, P-code, Arabic name].
      const govByName = new Map(d.governorates.map((g) => [g[0], g[1]]));
      this.tables = { agencies: d.agencies, photographers: d.photographers, places: d.places, governorates: d.governorates, agreements: d.agreements };
      this.aliases = new Map(Object.entries(d.aliases || {})); // a place's other ids
      this.agencyKeys = d.agency_keys || {}; // the sources' names (search.js searchAgency)
      this.govCode = (name) => govByName.get(name) || name;
      this.byID = new Map();
      this.rows = d.points.map(([id, lon, lat, from, to, placement, metadata, agency, photographer, place, gov, agreement, confidence, seq, verified], k) => {
        const p = { k, id, lon, lat, from, to, placement, metadata, confidence, seq, verified: verified === 1,
          agency: agency < 0 ? "" : d.agencies[agency][0], agencyName: agency < 0 ? "" : d.agencies[agency][1], agencyAr: agency < 0 ? "" : d.agencies[agency][2],
          photographer: photographer < 0 ? "" : d.photographers[photographer][0],
          place: place < 0 ? "" : d.places[place][0], placeName: place < 0 ? "" : d.places[place][1], placeNameAr: place < 0 ? "" : d.places[place][2],
          gov: gov < 0 ? "" : d.governorates[gov][0], govAr: gov < 0 ? "" : d.governorates[gov][2], agreement: agreement < 0 ? "" : d.agreements[agreement][0] };
        this.byID.set(id, p);
        return p;
      });
    }
    return this.rows;
  }

  // chunk is the Features of chunk i (see publish's chunkTable).
  async chunk(i) {
    const t = await this.load(this.m.chunks);
    const features = await this.load(`data/photos/p.${t.hashes[i]}.json.gz`);
    if (!features.rebased) {
      // The images' addresses are the site root's; a page in ar/ would
      // read them as its own.
      for (const { properties: p } of features) {
        for (const k of ["image_url", "thumbnail_url"]) if (p[k]) p[k] = new URL(p[k], this.base).href;
      }
      features.rebased = true;
    }
    return features;
  }

  // loaded reports whether the list of all photos is in (a small site
  // loads it at once; a large one when a filter first needs it).
  get loaded() { return Boolean(this.rows); }

  // feature is photo k's GeoJSON Feature, as the API writes it.
  async feature(k) {
    const t = await this.load(this.m.chunks);
    let i = 0;
    for (; i < t.counts.length && k >= t.counts[i]; i++) k -= t.counts[i];
    return (await this.chunk(i))[k];
  }

  // featureOf finds photo id's Feature: through the list of all photos
  // when it is in, else in the chunks its first day lies in (given, or
  // remembered from the tiles and chunks read), else through the list.
  async featureOf(id, day) {
    if (!this.loaded) {
      day ??= this.days.get(id);
      if (day !== undefined && day !== null) {
        const t = await this.load(this.m.chunks);
        for (let i = lowerBoundBy(t.last, (last) => last > day); i < t.hashes.length && t.first[i] >= day; i++) {
          const f = (await this.chunk(i)).find((f) => f.id === id);
          if (f) return f;
        }
      }
    }
    await this.photos();
    const p = this.byID.get(id);
    return p ? this.feature(p.k) : null;
  }

  // matcher is the filters of a query as a test of a photo, without
  // the facet named in except (a facet's counts ignore its own choice).
  async matcher(q, except) {
    // The filter as the server reads it (checked by checkFilter before
    // any answer): a source by any of its names.
    const f = parseFilter(q, q.getAll("agency").length ? (await this.photos(), this.agencyKeys) : {});
    const { from, to } = windowOf(f), box = f.bbox;
    const sets = {};
    if (f.places.length) await this.photos(); // the places' other ids
    const values = { agency: f.agencies, photographer: f.photographers, place: f.places.map((v) => this.aliases.get(v) || v),
      governorate: f.governorates, agreement: f.agreements };
    for (const k of MULTI) if (k !== except && values[k].length) sets[k] = new Set(values[k]);
    const { minConfidence: minConf, unplaced, verified } = f;
    const linked = f.event ? await this.linkedTo(f.event) : null;
    const found = q.get("q") ? await this.search(q.get("q")) : null; // null: no words to find, as the server's empty search
    // A search that names a source finds its photos too, as the server's.
    const agency = found && searchAgency(q.get("q"), (await this.photos(), this.agencyKeys));
    return (p) => {
      if ((from !== null || to !== null) && !overlaps(p.from, p.to, from, to)) return false;
      if (box && (p.lon === null || p.lon < box[0] || p.lon > box[2] || p.lat < box[1] || p.lat > box[3])) return false;
      if (unplaced && p.lon !== null) return false;
      if (verified && !p.verified) return false;
      if (minConf > 0 && p.confidence < minConf) return false;
      if (sets.agency && !sets.agency.has(p.agency)) return false;
      if (sets.photographer && !sets.photographer.has(p.photographer)) return false;
      if (sets.place && !sets.place.has(p.place)) return false;
      if (sets.governorate && !sets.governorate.has(p.gov) && !sets.governorate.has(this.govCode(p.gov))) return false;
      if (sets.agreement && !sets.agreement.has(p.agreement)) return false;
      if (linked && !linked.has(p.k)) return false;
      if (found && !found.has(p.k) && !(agency && p.agency === agency)) return false;
      return true;
    };
  }

  // linkedTo is the numbers of the photos of the site an editor linked
  // to the event key ("ucdp-ged:270123"), or to any event ("any"): the
  // publish's event_photos (none in a site of no events).
  async linkedTo(key) {
    const byEvent = this.m.event_photos ? await this.load(this.m.event_photos) : {};
    return new Set(key === "any" ? Object.values(byEvent).flat() : byEvent[key] || []);
  }

  // shard is the piece of the search index that files words beginning as
  // w does (publish's shardOf: the first letter's code in base 36), with
  // its words sorted for prefixes; null when no word begins so.
  async shard(w) {
    const key = w.codePointAt(0).toString(36), file = this.m.search[key];
    if (!file) return null;
    this.shards = this.shards || {};
    if (!this.shards[key]) {
      const index = (await this.load(file)).words;
      this.shards[key] = { index, keys: Object.keys(index).sort() };
    }
    return this.shards[key];
  }

  // search returns the numbers of the photos whose captions the
  // full-text search raw finds (search.js), null when it has no words.
  // Only the index's pieces for its words' first letters are loaded.
  async search(raw) {
    let tree = searchTree(raw);
    if (tree === null) return null;
    const w = widen(raw, await this.spellings());
    if (w) tree = widenedTree(w.parts); // a place's name: its spellings
    const loaded = new Map();
    for (const w of treeWords(tree)) loaded.set(w, await this.shard(w));
    return evaluate(tree, (w) => loaded.get(w));
  }

  // spellings is the table a search reads place names by (publish's
  // spellings; search.js widen), loaded on the first search.
  async spellings() {
    if (!this.m.spellings) return null;
    this.spellingsTable ??= this.load(this.m.spellings);
    return this.spellingsTable;
  }

  // searchSpellings is the server's /api/search/spellings: the places a
  // search names, each with the spellings it finds as one.
  async searchSpellings(q) {
    const w = widen(q.get("q") || "", await this.spellings());
    return { places: w ? w.spelled.map((sp) => ({ id: sp.place, names: sp.names })) : [] };
  }

  // answer is the response to a request for path (under api/) with query q.
  async answer(path, q) {
    await this.ready;
    if (path === "places/search") {
      const name = (q.get("q") || "").trim();
      if (name === "" || utf8Length(name) > rules.max_place_name) throw new APIError(400, rules.messages.place_name, "q");
    }
    checkParams(path, q);
    switch (path) {
      case "points.json": return this.points(q);
      case "clusters": return this.clusters(q);
      case "timeline": return this.timeline(q);
      case "facets": return this.facets(q);
      case "photos.geojson": return this.list(q);
      case "photos.csv": return this.csv(q);
      case "places/search": return this.placesSearch(q);
      case "search/spellings": return this.searchSpellings(q);
      case "labels": return this.labels(q);
      case "basemap.geojson": return this.load(this.m.basemap);
      case "events/points.json":
        if (this.m.events) return this.load(this.m.events);
        break;
    }
    const m = /^photos\/(.+)\.geojson$/.exec(path);
    if (m) {
      const f = await this.featureOf(decodeURIComponent(m[1]), q.get("d") === null ? null : Number(q.get("d")));
      if (!f) throw new APIError(404, `photo ${decodeURIComponent(m[1])} not found`); // the server's words (store's notFound)
      return f;
    }
    throw new APIError(404, `a published site has no api/${path}`);
  }

  async points(q) {
    const ok = await this.matcher(q);
    return {
      fields: ["id", "lon", "lat", "from", "to", "placement", "metadata"],
      points: (await this.photos()).filter(ok).map((p) => [p.id, p.lon, p.lat, p.from, p.to, p.placement, p.metadata]),
    };
  }

  async timeline(q) {
    const bin = q.get("bin") || "month"; // checked by checkParams
    if (bin === "day") {
      const { from: first, to: last } = windowOfQuery(q);
      if (first === null || last === null || daysFrom(first, last) > MAX_DAY_BINS) {
        throw new APIError(400, `day needs a window (from and to) of at most ${MAX_DAY_BINS} days`, "bin");
      }
    }
    const withTotal = (t) => ({ bin: t.bin, total: t.counts.reduce((n, c) => n + c.count, 0), counts: t.counts });
    if (bin === "month" && !narrows(q) && !q.get("from") && !q.get("to") && !q.get("bbox")) {
      return withTotal({ bin, counts: (await this.load(this.m.timeline)).months });
    }
    if (bin === "day" && !narrows(q) && !q.get("bbox") && !this.loaded) return withTotal(await this.daysFromCounts(q));
    const ok = await this.matcher(q);
    const counts = new Map();
    for (const p of await this.photos()) {
      if (p.from === 0 || !ok(p)) continue;
      if (bin === "day" && p.from !== p.to) continue;
      const key = bin === "day" ? dayBin(p.from) : bin === "year" ? String(Math.floor(p.from / 10000)) : monthBin(p);
      counts.set(key, (counts.get(key) || 0) + 1);
    }
    return withTotal({ bin, counts: [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([b, count]) => ({ bin: b, count })) });
  }

  // daysFromCounts is a window's day counts from the publish's own, per
  // year (the photos dated to a day).
  async daysFromCounts(q) {
    const { from, to } = windowOfQuery(q);
    const counts = [];
    for (let y = Math.floor(from / 10000); y <= Math.floor(to / 10000); y++) {
      if (!this.m.days[y]) continue;
      for (const b of (await this.load(this.m.days[y])).days) {
        const d = Number(b.bin.replaceAll("-", ""));
        if (d >= from && d <= to) counts.push(b);
      }
    }
    return { bin: "day", counts };
  }

  async facets(q) {
    // The publish counted the whole selection and each year.
    const year = q.get("from") && q.get("from") === q.get("to") && /^\d{4}$/.test(q.get("from")) ? q.get("from") : null;
    if (!narrows(q) && !q.get("bbox") && (year || !q.get("from") && !q.get("to")) && !this.loaded) {
      const c = await this.load(this.m.counts);
      const facets = year ? c.years[year]?.facets : c.facets;
      if (facets) {
        const out = { photos: await this.matching(q), of: this.m.total };
        const limit = Number(q.get("limit") || 50);
        for (const [field, key] of Object.entries(FACET_KEYS)) if (!q.get("field") || q.get("field") === field) out[key] = (facets[key] || []).slice(0, limit);
        return out;
      }
    }
    const rows = await this.photos();
    const fields = q.get("field") ? [q.get("field")] : ["agency", "photographer", "governorate", "place"];
    const limit = Number(q.get("limit") || 50);
    const ok = await this.matcher(q);
    const out = { photos: rows.filter(ok).length, of: rows.length };
    for (const field of fields) {
      const okBut = await this.matcher(q, field);
      const counts = new Map();
      const labels = new Map(), labelsAr = new Map();
      for (const p of rows) {
        if (!okBut(p)) continue;
        const value = field === "agency" ? p.agency : field === "photographer" ? p.photographer : field === "place" ? p.place : this.govCode(p.gov);
        if (!value) continue;
        counts.set(value, (counts.get(value) || 0) + 1);
        // The labels are the publish's, the server's (pagemodel's
        // FacetLabelAr for the Arabic): of a value the photos name two
        // ways, the largest counted, as the server's max().
        const label = field === "place" ? p.placeName : field === "governorate" ? p.gov : field === "agency" ? p.agencyName || value : value;
        labels.set(value, labels.has(value) ? laterLabel(labels.get(value), label) : label);
        if (!labelsAr.has(value)) labelsAr.set(value, field === "place" ? p.placeNameAr : field === "governorate" ? p.govAr : field === "agency" ? p.agencyAr : undefined);
      }
      out[FACET_KEYS[field]] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, limit)
        .map(([value, count]) => ({ value, label: labels.get(value), label_ar: labelsAr.get(value) || undefined, count }));
    }
    return out;
  }

  // selected returns the photos a list query selects, in its order and
  // page.
  async selected(q) {
    const ok = await this.matcher(q);
    const sel = (await this.photos()).filter(ok); // newest first
    // Import order, the server's own when none is asked.
    if (q.get("order") !== "newest") sel.sort((a, b) => a.seq - b.seq);
    const offset = Number(q.get("offset") || 0);
    const limit = Number(q.get("limit") || 0);
    return sel.slice(offset, limit > 0 ? offset + limit : undefined);
  }

  async list(q) {
    if (!this.loaded && !narrows(q, "unplaced") && q.get("order") === "newest") return this.scanList(q);
    const sel = await this.selected(q);
    return { type: "FeatureCollection", features: await Promise.all(sel.map((p) => this.feature(p.k))), numberReturned: sel.length };
  }

  // scanList is a large site's list of the photos in view, newest first,
  // without the list of all photos: the chunks are newest first, so the
  // first that match the view and the window are the page. It reads at
  // most SCAN_PHOTOS photos past the page's start.
  async scanList(q) {
    const { from, to } = windowOfQuery(q);
    const box = q.get("bbox") ? q.get("bbox").split(",").map(Number) : null;
    const unplaced = ["1", "true"].includes((q.get("unplaced") || "").trim());
    const offset = Number(q.get("offset") || 0), limit = Number(q.get("limit") || 50);
    const features = [];
    const t = await this.load(this.m.chunks);
    // The photos are newest first: a window's begin in the first chunk
    // whose last photo starts on or before the window's end, and end
    // before the chunks that start before the window's year (a photo
    // dated to a year or a month may start before the window).
    let c = to === null ? 0 : lowerBoundBy(t.last, (last) => last > to);
    const floor = from === null ? -1 : Math.floor(from / 10000) * 10000;
    let seen = 0, read = 0;
    for (; c < t.hashes.length && features.length < limit && read < SCAN_PHOTOS; c++) {
      if (c > 0 && t.last[c - 1] < floor) break;
      const chunk = await this.chunk(c);
      if (seen >= offset) read += chunk.length;
      chunk.forEach((f) => {
        this.days.set(f.id, f.properties.date ? Number(f.properties.date.replaceAll("-", "")) : 0);
        const [lon, lat] = f.geometry?.coordinates || [null, null];
        if (unplaced && lon !== null) return;
        if (box && (lon === null || lon < box[0] || lon > box[2] || lat < box[1] || lat > box[3])) return;
        if (from !== null || to !== null) {
          if (!f.properties.date) return;
          const first = Number(f.properties.date.replaceAll("-", ""));
          const last = lastDayOf(first, f.properties.date_precision);
          if (!overlaps(first, last, from, to)) return;
        }
        if (seen++ >= offset && features.length < limit) features.push(f);
      });
    }
    return { type: "FeatureCollection", features, numberReturned: features.length };
  }

  // matching counts the photos in a window, from the publish's month
  // counts (a window counts the months it touches whole).
  async matching(q) {
    const { from, to } = windowOfQuery(q);
    let n = 0;
    for (const b of (await this.load(this.m.timeline)).months) {
      const first = dayOf(b.bin, false), last = dayOf(b.bin, true);
      if ((from === null || last >= from) && (to === null || first <= to)) n += b.count;
    }
    return n + (from === null && to === null ? this.m.total - (await this.load(this.m.timeline)).months.reduce((s, b) => s + b.count, 0) : 0);
  }

  // clusters answers /api/clusters: from the list of all photos when it is
  // in or a filter needs it, else from the published tiles, each cluster's
  // photos counted in the window by their months.
  async clusters(q) {
    const zoom = Math.max(0, Math.round(Number(q.get("zoom") || 0)));
    const box = (q.get("bbox") || "-180,-85,180,85").split(",").map(Number);
    if (this.loaded || narrows(q)) return this.clustersOfPoints(q, zoom, box);
    // A small site's map is its points (the page reads them at once):
    // its first view reads the tiles only where the host answers ranges.
    this.pm ??= this.tilesArchive().catch((err) => { this.pm = null; throw err; });
    const tiles = await this.pm;
    if (!tiles) return this.clustersOfPoints(q, zoom, box);
    const { pm, deepest } = tiles;
    const z = Math.min(zoom, deepest); // the deepest zoom of the tiles read
    const { from, to } = windowOfQuery(q);
    const windowed = from !== null || to !== null;
    const inWindow = (a, b) => (from === null || b >= from) && (to === null || a <= to);
    const [x0, y0] = tileOf(box[0], box[3], z), [x1, y1] = tileOf(box[2], box[1], z);
    const jobs = [];
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) jobs.push(pm.getZxy(z, x, y).then((t) => t && { t, x, y }));
    const clusters = [];
    const cell = 360 / 2 ** z / 4;
    for (const got of await Promise.all(jobs)) {
      if (!got) continue;
      const layer = new VectorTile(new Pbf(new Uint8Array(got.t.data))).layers.photos;
      for (let i = 0; layer && i < layer.length; i++) {
        const f = layer.feature(i);
        const [lon, lat] = f.toGeoJSON(got.x, got.y, z).geometry.coordinates;
        const p = f.properties;
        let n = 0;
        if (z === this.m.tile_zoom) n = windowed ? (p.from && inWindow(p.from, p.to) ? 1 : 0) : 1;
        else {
          for (const part of String(p.m).split(";")) {
            const [span, count] = part.split(":");
            const [a, b = a] = span.split("-").map(Number);
            if (a === 0 ? !windowed : inWindow(a * 100 + 1, b * 100 + 31)) n += Number(count);
          }
        }
        if (n === 0) continue;
        if (p.id !== undefined) this.days.set(p.id, p.from);
        clusters.push(n === 1 && p.id !== undefined && p.count === 1 ? { lon, lat, count: 1, id: p.id, placement: 0, metadata: 0 }
          : { lon, lat, count: n, bbox: [lon - cell / 2, lat - cell / 2, lon + cell / 2, lat + cell / 2] });
      }
    }
    const out = { matching: await this.matching(q), clusters };
    // Read from the overview past its zoom: the page says so.
    if (zoom > deepest) out.coarse_past = deepest;
    return out;
  }

  // tilesArchive opens the site's PMTiles archive, after one small range
  // request for the first bytes of its overview (the archive's tiles
  // down to overview_zoom, about a hundred kilobytes), asked of the host,
  // not of the browser's cache (which answers a range of a file it holds
  // whole). A host that answers it (206) serves the tiles one by one. One
  // that sends the whole file instead (python3 -m http.server does) has
  // sent the overview, which the page then reads: coarser clusters past
  // its zoom rather than no map, and never the whole archive fetched to
  // learn it. A site within its points limit needs no tiles (its map is
  // its points): null, and nothing said. Only a site without an overview
  // says that the host is the trouble ("host").
  async tilesArchive() {
    const url = new URL(this.m.tiles, this.base).href;
    const probed = this.m.overview || this.m.tiles;
    const probe = await nativeFetch(new URL(probed, this.base), { headers: { Range: "bytes=0-15" }, cache: "no-store" });
    const ranged = probe.status === 206 && probe.headers.get("Content-Range");
    const small = this.m.total <= this.m.points_limit;
    if (ranged || small || !this.m.overview) probe.body?.cancel().catch(() => {});
    if (ranged) return { pm: new PMTiles(url), deepest: this.m.tile_zoom };
    if (small) return null;
    if (!this.m.overview) throw new APIError(503, `the host answered a range request for ${this.m.tiles} with ${probe.status} and the whole file: the map of a site this large needs a host that answers range requests`, "host");
    if (!probe.ok) throw new Error(t("static.host-answered", { path: this.m.overview, status: String(probe.status) }));
    const file = new File([await probe.arrayBuffer()], this.m.overview);
    return { pm: new PMTiles(new FileSource(file)), deepest: this.m.overview_zoom };
  }

  // clustersOfPoints groups the photos the filters select in the
  // server's cells (60 px at the zoom), each at its photos' mean point.
  async clustersOfPoints(q, zoom, box) {
    const ok = await this.matcher(q);
    const rows = await this.photos();
    const noBox = new URLSearchParams(q);
    noBox.delete("bbox");
    const okAnywhere = await this.matcher(noBox);
    const cell = (360 * CLUSTER_PIXELS) / (256 * 2 ** zoom);
    const cells = new Map();
    let matching = 0;
    for (const p of rows) {
      if (!okAnywhere(p)) continue;
      matching++;
      if (p.lon === null || !ok(p) || p.lon < box[0] || p.lon > box[2] || p.lat < box[1] || p.lat > box[3]) continue;
      const key = `${Math.floor((p.lon + 180) / cell)},${Math.floor((p.lat + 90) / cell)}`;
      const c = cells.get(key) || cells.set(key, { n: 0, lon: 0, lat: 0, p }).get(key);
      // Summed in whole millionths of a degree, exactly (photo.Micro):
      // the mean does not depend on the order, which is not the server's.
      c.n++;
      c.lon += micro(p.lon);
      c.lat += micro(p.lat);
    }
    const clusters = [...cells].map(([key, c]) => {
      const [i, j] = key.split(",").map(Number);
      return c.n === 1 ? { lon: round6(c.p.lon), lat: round6(c.p.lat), count: 1, id: c.p.id, placement: c.p.placement, metadata: c.p.metadata }
        : { lon: round6(c.lon / c.n / 1e6), lat: round6(c.lat / c.n / 1e6), count: c.n, bbox: [i * cell - 180, j * cell - 90, (i + 1) * cell - 180, (j + 1) * cell - 90].map(round6) };
    });
    return { matching, clusters };
  }

  async csv(q) {
    const cols = rules.csv_columns;
    const cell = (v) => {
      let s = v === null || v === undefined ? "" : String(v);
      if (/^[=+\-@\t\r]/.test(s) && typeof v === "string") s = "'" + s;
      return /[",\r\n]|^ /.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
    };
    const lines = [cols.join(",")];
    for (const f of (await this.list(q)).features) {
      const [lon, lat] = f.geometry ? f.geometry.coordinates.map((c) => c.toFixed(6)) : ["", ""];
      lines.push(cols.map((c) => (c === "id" ? cell(f.id) : c === "lon" ? lon : c === "lat" ? lat : cell(f.properties[c]))).join(","));
    }
    return lines.join("\n") + "\n";
  }

  // placesSearch is the server's place search with with_photos=true: a
  // published site holds only the places of its photos.
  async placesSearch(q) {
    const name = (q.get("q") || "").trim(); // limit and with_photos: checkParams
    const { default: def, min, max } = rules.params["places/search"].ints[0];
    const limit = intParam(q, "limit", def, min, max);
    this.foldName ??= makeFold(rules.fold);
    return searchPlaces(await this.load(this.m.places), name, limit, this.foldName);
  }

  async labels(q) {
    const box = (q.get("bbox") || "").split(",").map(Number);
    const zoom = Number(q.get("zoom") || 6);
    const features = [];
    const files = Object.keys(this.m.labels).map(Number).filter((z) => z <= zoom).sort((a, b) => a - b);
    for (const z of files) {
      for (const [lon, lat, name, kind, , id, nameAr] of await this.load(this.m.labels[z])) {
        if (features.length === MAX_LABELS) break;
        if (lon < box[0] || lon > box[2] || lat < box[1] || lat > box[3]) continue;
        const properties = nameAr ? { name, kind, name_ar: nameAr } : { name, kind };
        features.push({ type: "Feature", id, geometry: { type: "Point", coordinates: [lon, lat] }, properties });
      }
    }
    return { type: "FeatureCollection", features };
  }
}

// tileOf is the tile at zoom z holding lon, lat (clamped to the world).
function tileOf(lon, lat, z) {
  const n = 2 ** z;
  const r = (Math.max(-85.05, Math.min(85.05, lat)) * Math.PI) / 180;
  const x = Math.floor(((Math.max(-180, Math.min(179.9999, lon)) + 180) / 360) * n);
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return [Math.min(n - 1, Math.max(0, x)), Math.min(n - 1, Math.max(0, y))];
}

// lastDayOf is the last day a date of that precision starting on first
// covers.
function lastDayOf(first, precision) {
  if (precision === "year") return Math.floor(first / 10000) * 10000 + 1231;
  if (precision === "month") return dayOf(`${Math.floor(first / 10000)}-${pad(Math.floor(first / 100) % 100)}`, true);
  return first;
}

// lowerBoundBy is the first index of a at which past(a[i]) stops being
// true (a is ordered so that past holds for a prefix).
function lowerBoundBy(a, past) {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (past(a[m])) lo = m + 1;
    else hi = m;
  }
  return lo;
}


// micro is photo.Micro: whole millionths of a degree, half away from zero.
const micro = (x) => (x < 0 ? -Math.round(-x * 1e6) : Math.round(x * 1e6));
// round6 is web.Round6: 6 decimals (about 10 cm), half away from zero.
const round6 = (x) => (x < 0 ? -Math.trunc(-x * 1e6 + 0.5) : Math.trunc(x * 1e6 + 0.5)) / 1e6;

// MAX_DAY_BINS is how long a window day bins may cover: the server's.
const MAX_DAY_BINS = rules.max_day_bins;

// daysFrom is how many days first to last (YYYYMMDD) cover, both in.
function daysFrom(first, last) {
  const t = (d) => Date.UTC(Math.floor(d / 10000), Math.floor(d / 100) % 100 - 1, d % 100);
  return Math.round((t(last) - t(first)) / 86_400_000) + 1;
}

const nativeFetch = window.fetch.bind(window);

// installStaticAPI makes the page's requests for api/… answered by a
// StaticAPI over the site's data, and its download links made in the
// page. config.root leads from the page's folder to the site's.
export function installStaticAPI(config) {
  const base = new URL(config.root || "./", location.href);
  const api = new StaticAPI(base);
  const under = (u) => (u.origin === base.origin && u.pathname.startsWith(base.pathname + "api/") ? u.pathname.slice(base.pathname.length + 4) : null);
  window.fetch = async (input, init) => {
    const u = new URL(typeof input === "string" || input instanceof URL ? input : input.url, location.href);
    const path = under(u);
    if (path === null) return nativeFetch(input, init);
    try {
      const body = await api.answer(path, u.searchParams);
      return typeof body === "string" ? new Response(body, { headers: { "Content-Type": "text/csv" } })
        : new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } });
    } catch (err) {
      const body = err.parameter ? { error: err.message, parameter: err.parameter } : { error: err.message };
      return new Response(JSON.stringify(body), { status: err.status || 500, headers: { "Content-Type": "application/json" } });
    }
  };
  // A download link of the API: the file is made here and saved.
  document.addEventListener("click", async (ev) => {
    const a = ev.target.closest?.("a[href]");
    if (!a || ev.defaultPrevented || ev.button !== 0) return;
    const u = new URL(a.getAttribute("href"), location.href);
    const path = under(u);
    if (path === null || !/^photos\.(geojson|csv)$/.test(path)) return;
    ev.preventDefault();
    const res = await window.fetch(u.href);
    const blob = new Blob([await res.arrayBuffer()], { type: path.endsWith("csv") ? "text/csv" : "application/geo+json" });
    const save = h("a", { href: URL.createObjectURL(blob), download: path.endsWith("csv") ? "photos.csv" : "photos.geojson" });
    document.body.append(save);
    save.click();
    save.remove();
    setTimeout(() => URL.revokeObjectURL(save.href), 60_000);
  });
  return api;
}

// photoPage fills in a published site's photo page (photo.html?id=…).
export async function photoPage(root, api) {
  const params = new URLSearchParams(location.search);
  const id = params.get("id");
  const status = root.querySelector("[data-testid=map-status]");
  // The data is the site's, wherever the page (ar/photo.html, say) is.
  const res = await window.fetch(new URL(`api/photos/${encodeURIComponent(id || "")}.geojson${params.get("d") ? "?d=" + encodeURIComponent(params.get("d")) : ""}`, api.base));
  if (!res.ok) {
    status.textContent = id ? t("static.no-photo", { id }) : t("static.which-photo");
    return;
  }
  const f = await res.json();
  await api.ready;
  const p = f.properties, place = placeName(p.place_name, p.place_name_ar), date = dateText(p.date, p.date_precision);
  document.title = `${place || t("photo.title")} · ${api.m.title || t("explorer.heading")}`;
  const heading = h("h1", {}, place ? (date ? t("static.heading-date", { place, date }) : place) : t("static.not-on-map"));
  const parts = [heading, card(f, root.dataset.placeUrl)];
  if (f.geometry) {
    const [lon, lat] = f.geometry.coordinates;
    // A region, as the server's photo page has it: a map holds controls,
    // which an image may not.
    const mini = h("div", { class: "place-map mini-map", "data-testid": "place-map", role: "region", "aria-label": t("map.showing", { place }),
      "data-basemap-url": root.dataset.basemapUrl, "data-labels-url": root.dataset.labelsUrl, "data-lon": String(lon), "data-lat": String(lat),
      "data-label": place || "", "data-tiles": root.dataset.tiles || "" });
    parts.push(mini, h("p", {}, h("a", { href: `./?photo=${encodeURIComponent(f.id)}&map=14/${lat.toFixed(4)}/${lon.toFixed(4)}`, "data-testid": "on-the-map" }, t("static.on-the-map"))));
    root.replaceChildren(...parts);
    placeMap(mini);
  } else root.replaceChildren(...parts);
}
