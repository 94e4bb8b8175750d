// Place search on a published site, as the server searches
// (archive.SearchPlaces): a name is folded as gazetteer.Fold folds it, and
// a place is found when one of its names is a spelling of the search or
// begins like it. The tables of the fold (runes, marks, articles) come
// from Go through rules.json; what is code here follows fold.go line for
// line, and TestFoldInJSMatchesGo folds every name of the gazetteer both
// ways.
//
// Fold works on UTF-8 bytes, as Go does: its keys here are strings of one
// character per byte, so that lengths, prefixes and edit distances count
// what Go's count.

const utf8 = new TextEncoder();
const [A, E, I, U, H, Y, W] = [..."aeiuhyw"].map((c) => c.charCodeAt(0));
const ALIF_LAM = [0xd8, 0xa7, 0xd9, 0x84]; // "ال"
const LETTER = /\p{L}/u, DIGIT = /\p{Nd}/u, COMBINING = /\p{Mn}/u;

const isVowel = (c) => c === A || c === I || c === U;
const isAsciiWord = (r) => (r >= 0x61 && r <= 0x7a) || (r >= 0x41 && r <= 0x5a) || (r >= 0x30 && r <= 0x39);

// makeFold returns gazetteer.Fold over the tables t (rules.fold): name →
// { fine, skeleton, consonants }.
export function makeFold(t) {
  const runes = new Map(Object.entries(t.runes).map(([r, s]) => [r.codePointAt(0), [...utf8.encode(s)]]));
  const marks = new Set([...t.marks].map((c) => c.codePointAt(0)));
  const articles = new Set(t.articles);

  const isMark = (r) => (r < 0x80 ? r === 0x27 || r === 0x60 : marks.has(r) || COMBINING.test(String.fromCodePoint(r)));
  const isWordRune = (r) => {
    if (r < 0x80) return isAsciiWord(r);
    const c = String.fromCodePoint(r);
    return LETTER.test(c) || DIGIT.test(c);
  };

  // words calls fn with each word of s, an English possessive taken off.
  function words(s, fn) {
    let word = null;
    for (const ch of s) {
      const r = ch.codePointAt(0);
      if (isWordRune(r) || (word !== null && isMark(r))) {
        word = (word ?? "") + ch;
        continue;
      }
      if (word !== null) fn(trimPossessive(word));
      word = null;
    }
    if (word !== null) fn(trimPossessive(word));
  }

  function lowerWord(word) {
    const out = [];
    let arabic = false;
    for (const ch of word) {
      const r = ch.codePointAt(0);
      if (isMark(r)) continue;
      if (r < 0x80) {
        out.push(r >= 0x41 && r <= 0x5a ? r + 32 : r);
        continue;
      }
      if (r >= 0x600 && r <= 0x6ff) arabic = true;
      out.push(...(runes.get(r) ?? utf8.encode(ch.toLowerCase())));
    }
    return { low: out, arabic };
  }

  function foldWord(word) {
    const { low, arabic } = lowerWord(word);
    const fine = arabic ? fineArabic(low) : fineLatin(low);
    if (fine.length === 0) return null;
    return { text: fine, skel: skeleton(fine, arabic), article: !arabic && articles.has(String.fromCharCode(...fine)), arabic };
  }

  return function fold(name) {
    const k = { fine: [], skel: [], consonants: 0, added: false };
    words(name, (word) => {
      const w = foldWord(word);
      if (w && !w.article) add(k, w);
    });
    if (!k.added) words(name, (word) => add(k, foldWord(word) ?? { text: [], skel: [], arabic: false }));
    return { fine: String.fromCharCode(...k.fine), skeleton: String.fromCharCode(...k.skel), consonants: k.consonants };
  };
}

function trimPossessive(w) {
  for (const suffix of ["'s", "’s"]) {
    if (w.endsWith(suffix) && [...w.slice(0, -suffix.length)].length >= 3) return w.slice(0, -suffix.length);
  }
  return w;
}

function fineLatin(w) {
  w = trimGluedArticle(w);
  finalEya(w);
  let out = [];
  for (let i = 0; i < w.length; i++) {
    const [c, pair] = foldPair(w[i], i + 1 < w.length ? w[i + 1] : 0);
    out.push(c);
    if (pair) i++;
  }
  out = collapse(out);
  // A semivowel is a consonant at the start or before a vowel.
  for (let i = 1; i < out.length; i++) {
    if ((out[i] === Y || out[i] === W) && (i + 1 === out.length || !isVowel(out[i + 1]))) out[i] = out[i] === Y ? I : U;
  }
  out = collapse(out);
  const n = out.length;
  if (n > 2 && out[n - 1] === H && isVowel(out[n - 2])) out.pop();
  return out;
}

// finalEya rewrites the e of a final -eya, -eyah, -eyeh, -eyya as the i of
// -iya (al-Hamdeya, Hamidiyah), as Go's finalEya does.
function finalEya(w) {
  let n = w.length;
  if (n > 0 && w[n - 1] === H) n--;
  if (n === 0 || (w[n - 1] !== A && w[n - 1] !== E)) return;
  n--;
  let i = n;
  while (i > 0 && w[i - 1] === Y && n - i < 2) i--;
  if (i === n || i < 4 || w[i - 1] !== E) return;
  w[i - 1] = I;
}

const code = (c) => c.charCodeAt(0);

// SINGLE are the letters folded alone to another.
const SINGLE = { q: "k", c: "k", p: "b", v: "f", o: "u", e: "a" };

function foldPair(c, next) {
  const ch = String.fromCharCode(c);
  if (next === H && "kgsctdpz".includes(ch)) return [ch === "c" ? code("s") : ch === "d" ? code("z") : ch === "p" ? code("f") : c, true];
  if (ch === "o" && (next === U || next === code("o"))) return [U, true];
  if (ch === "e" && next === E) return [I, true];
  if (ch === "d" && next === code("j")) return [code("j"), true];
  if (ch === "c" && next === code("k")) return [code("k"), true];
  const single = SINGLE[ch];
  return [single ? code(single) : c, false];
}

function trimGluedArticle(w) {
  if (w.length >= 5 && (w[0] === A || w[0] === E) && w[1] === w[2] && "tdrzsnl".includes(String.fromCharCode(w[1]))) return w.slice(2);
  return w;
}

function collapse(w) {
  return w.filter((c, i) => i === 0 || c !== w[i - 1]);
}

function fineArabic(w) {
  return w.length > ALIF_LAM.length + 2 && ALIF_LAM.every((b, i) => w[i] === b) ? w.slice(ALIF_LAM.length) : w;
}

function skeleton(w, arabic) {
  if (arabic || w.length === 0) return w.slice();
  const out = [isVowel(w[0]) ? A : w[0]];
  for (let i = 1; i < w.length; i++) {
    // h inside a word comes and goes in transliteration; only a leading
    // h is kept.
    if (!isVowel(w[i]) && w[i] !== H && !isGlide(w, i)) out.push(w[i]);
  }
  return out;
}

function isGlide(w, i) {
  return i > 0 && i + 1 < w.length && w[i] === Y && w[i - 1] === I && isVowel(w[i + 1]);
}

function add(k, w) {
  k.added = true;
  appendCollapsed(k.fine, w.text);
  const before = k.skel.length;
  appendCollapsed(k.skel, w.skel);
  for (const c of k.skel.slice(before)) if (c !== A || w.arabic) k.consonants++;
  // A glide is no part of the skeleton, but it is still evidence that a
  // short name is the one meant.
  if (!w.arabic) for (let i = 0; i < w.text.length; i++) if (isGlide(w.text, i)) k.consonants++;
}

function appendCollapsed(dst, w) {
  const skip = dst.length > 0 && w.length > 0 && dst[dst.length - 1] === w[0] && w[0] < 0x80 ? 1 : 0;
  for (let i = skip; i < w.length; i++) dst.push(w[i]);
}

// distance is textdist.Distance: the optimal string alignment distance
// of two byte strings, or max+1 once it is past max.
function distance(a, b, max) {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2 = [], prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], prev2[j - 2] + 1);
    }
    [prev2, prev] = [prev, cur];
  }
  return Math.min(prev[b.length], max + 1);
}

// sameName is gazetteer's: a name whose skeleton is the search's spells
// it when their fine forms are equal or, for skeletons of three
// consonants or more, a few edits apart.
function sameName(ref, q) {
  if (ref.fine === q.fine) return true;
  if (q.consonants <= 2 || ref.consonants <= 2) return false;
  const max = Math.max(1, Math.floor((3 * Math.max(q.fine.length, ref.fine.length)) / 10));
  return distance(q.fine, ref.fine, max) <= max;
}

const runeCount = (bytes) => [...bytes].filter((c) => (c.charCodeAt(0) & 0xc0) !== 0x80).length;

// begins is archive's: a name begins like the search when its fine form
// does, or, for a search of three consonants or more, its skeleton does
// and the first two letters agree.
function begins(name, q) {
  return name.fine.startsWith(q.fine) ||
    (runeCount(q.skeleton) >= 3 && name.skeleton.startsWith(q.skeleton) && name.fine.startsWith(q.fine.slice(0, 2)));
}

const SPELLING_TIER = 100;

// searchPlaces is archive.SearchPlaces over the site's places (in the
// gazetteer's order, each with its names, prominence and country; their
// keys are folded once and kept on them): the places one of whose names
// is a spelling of the search, the very name typed first, then those
// whose names begin like it, each the most prominent first; at most limit.
export function searchPlaces(places, name, limit, fold) {
  const k = fold(name);
  const keysOf = (p) => (p.keys ??= [p.name, ...(p.name_ar && !(p.names || []).includes(p.name_ar) ? [p.name_ar] : []), ...(p.names || [])].map(fold));
  // gazetteer.Lookup: the spellings, most prominent first, Syrian places
  // before others as prominent, then by id.
  const spelled = places.filter((p) => keysOf(p).some((f) => f.skeleton !== "" && f.skeleton === k.skeleton && sameName(f, k)));
  spelled.sort((a, b) => b.prominence - a.prominence || (b.country === "SY") - (a.country === "SY") || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const matches = spelled.map((p) => ({ p, score: SPELLING_TIER + p.prominence + (keysOf(p).some((f) => f.fine === k.fine) ? SPELLING_TIER / 2 : 0) }));
  if (k.skeleton !== "") {
    const seen = new Set(spelled);
    for (const p of places) if (!seen.has(p) && keysOf(p).some((f) => begins(f, k))) matches.push({ p, score: p.prominence });
  }
  matches.sort((a, b) => b.score - a.score);
  const spelling = new Set(spelled);
  return matches.slice(0, limit).map(({ p }) => {
    const out = { id: p.id, name: p.name };
    if (p.name_ar) out.name_ar = p.name_ar;
    Object.assign(out, { kind: p.kind, in: p.in, lon: p.lon, lat: p.lat, spelling: spelling.has(p) });
    if (p.governorate) out.governorate = p.governorate; // a governorate's filter
    if (p.within) out.within = p.within; // the places inside it that hold photos (pagemodel.HoldingPlaces)
    return out;
  });
}
