// The published site's rules run on the inputs the server's rules were
// run on (internal/http/publish/testdata/site-vectors.json, written by
// `go test ./internal/http/publish -run TestSiteVectors -update`): every
// answer must be the server's. The site's own modules are imported as
// they are, no copies. `make test` runs it (node --test).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseDate, parseFilter, windowOf, overlaps, laterLabel } from "../src/siterules.js";
import { agencyKey, evaluate, searchAgency, searchTree, widen, widenedTree, words } from "../src/search.js";
import { fold } from "../src/fold.js";

const vectors = JSON.parse(readFileSync(new URL("../../internal/http/publish/testdata/site-vectors.json", import.meta.url), "utf8"));
const site = vectors.site;

// check runs each vector of a section through got and counts those whose
// answer is not want's, naming the first few.
function check(name, rows, got, want) {
  const differ = [];
  for (const row of rows) {
    const a = got(row), b = want(row);
    if (JSON.stringify(a) !== JSON.stringify(b)) differ.push(`${JSON.stringify(row[0])}: site ${JSON.stringify(a)}, server ${JSON.stringify(b)}`);
  }
  assert.ok(rows.length > 0, `no ${name} vectors`);
  assert.equal(differ.length, 0, `${differ.length} of ${rows.length} ${name} differ:\n${differ.slice(0, 12).join("\n")}`);
}

// refusal is an error thrown as the API says it, [parameter, message].
function refusal(f) {
  try {
    return f();
  } catch (err) {
    if (err.status !== 400) throw err;
    return { error: [err.parameter, err.message] };
  }
}

test("dates: parseDate is photo.ParseDate", () =>
  check("dates", vectors.dates, ([s]) => parseDate(s), ([, span]) => span));

test("filters and boxes: parseFilter is web.ParseFilter", () =>
  check("filters", vectors.filters, ([q]) => refusal(() => {
    const f = parseFilter(new URLSearchParams(q), vectors.agency_table);
    const w = windowOf(f);
    const { agencies, photographers, places, governorates, agreements, minConfidence, unplaced, verified } = f;
    return [f.from, f.to, f.bbox, [w.from, w.to], { agencies, agreements, governorates, minConfidence, photographers, places, unplaced, verified }]; // as Go orders a map's keys
  }), ([, err, from, to, box, win, values]) => (err ? { error: err } : [from, to, box, win, values])));

test("windows: overlaps is photo.Window's Admits", () =>
  check("windows", vectors.windows, ([q, first, last]) => {
    const w = windowOf(parseFilter(new URLSearchParams(q)));
    return overlaps(first, last, w.from, w.to);
  }, ([, , , admitted]) => admitted));

test("folds and words: fold and words are publish's searchFold and searchWords", () =>
  check("folds", vectors.folds, ([s]) => [fold(s), words(s)], ([, folded, ws]) => [folded, ws]));

test("searches: the site's search over its index finds what SQLite finds", (t) => {
  const shards = {};
  const shard = (w) => {
    const key = w.codePointAt(0).toString(36);
    if (!site.shards[key]) return null;
    shards[key] ??= { index: site.shards[key].words, keys: Object.keys(site.shards[key].words).sort() };
    return shards[key];
  };
  const all = site.corpus.map((_, k) => k);
  const answer = (q) => {
    try {
      let tree = searchTree(q);
      if (tree === null) return all;
      const w = widen(q, site.spellings); // a place's name: its spellings
      if (w) tree = widenedTree(w.parts);
      const found = evaluate(tree, shard), agency = searchAgency(q, site.agency_keys);
      return all.filter((k) => found.has(k) || (agency && site.agencies[k] === agency));
    } catch (err) {
      if (err.status !== 400) throw err;
      return { error: [err.parameter, err.message] };
    }
  };
  const server = ([err, ks]) => (err ? { error: err } : ks);
  // Three kinds of answer are the site's by design, and counted: a NEAR
  // group and a "phrase" of several words refused (the site's index has
  // no word positions; a search that is no search gets the server's
  // message all the same), and the
  // answer over the captions without their Arabic marks where FTS5's
  // index splits a word at a mark (فَالٌ filed as ف and ال) and the site's
  // does not.
  let near = 0, phrases = 0, marks = 0;
  check("searches", vectors.searches, ([q, ...rest]) => {
    const got = answer(q);
    const same = (a) => JSON.stringify(got) === JSON.stringify(server(a));
    if (same(rest)) return server(rest);
    if (got.error?.[1] === NEAR_REFUSED && /\bNEAR\s*\(/.test(q)) return near++, server(rest);
    if (got.error?.[1] === PHRASES_REFUSED && !rest[0]) return phrases++, server(rest);
    if (rest[2] && same(rest[2])) return marks++, server(rest);
    return got;
  }, ([, ...rest]) => server(rest));
  t.diagnostic(`${vectors.searches.length} searches: ${near} NEAR groups and ${phrases} phrases refused, ${marks} answered as over captions without marks`);
});

test("widen: a search reads place names as gazetteer's SearchSpellings.Widen does", () =>
  check("widen", vectors.widen, ([q]) => {
    const w = widen(q, site.spellings);
    return w ? [w.parts, w.spelled.map((sp) => sp.place)] : null;
  }, ([, parts, places]) => (parts ? [parts, places] : null)));

const NEAR_REFUSED = "q: a published site does not search with NEAR: search the live archive";
const PHRASES_REFUSED = "q: a published site finds words, not \"phrases\": leave out the quotes, or search the live archive";

test("facet labels: a value's label is SQLite's max() of its photos' labels", () =>
  check("labels", vectors.labels, (row) => row.slice(0, -1).reduce(laterLabel), (row) => row[row.length - 1]));

test("agency keys: agencyKey is lexicon.AgencyKey", () =>
  check("agency keys", vectors.agency_keys, ([name]) => agencyKey(name), ([, key]) => key));

test("the vectors are many", () => {
  const n = ["dates", "filters", "windows", "folds", "searches", "widen", "labels", "agency_keys"].reduce((s, k) => s + vectors[k].length, 0);
  assert.ok(n >= 10000, `${n} vectors`);
});
