// The full-text search of a published site, as the server reads it
// (store's ftsQuery, CheckSearch and FTS5's grammar), over the site's
// static index (publish's searchIndex). No DOM: Node imports this module
// as it is, and checks it against SQLite's answers on generated searches
// (assets/test/vectors.test.mjs).

import { rules, format, APIError, utf8Length, goSpaces, goTrim } from "./siterules.js";
import { agencyKey, fold } from "./fold.js";

export { agencyKey };

// The full-text search, as the server reads it (store's ftsQuery,
// CheckSearch and FTS5's grammar): words, OR, AND, NOT, brackets and
// prefix*, with the server's limits and messages (rules.search). A
// published site has no word positions: a "phrase" or NEAR is refused
// with a message saying so, never answered as something else.
const SEARCH = rules.search;

// words are the folded words of text (publish's searchWords): runs of
// letters and digits.
export const words = (s) => fold(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean);

// ftsClean is store's ftsQuery: punctuation that is no part of a
// search's syntax is a space; quotes (straight, curly, angle) pair.
export function ftsClean(q) {
  let out = "", quoted = false;
  for (const ch of q) {
    if ("\"“”«»".includes(ch)) {
      quoted = !quoted;
      out += '"';
    } else if (quoted || /[*()_\p{L}\p{N}\p{Mn}]/u.test(ch)) out += ch;
    else out += " ";
  }
  return out.split(goSpaces).filter(Boolean).join(" ");
}

// searchTokens splits a cleaned search into brackets, "phrases" and words.
export function searchTokens(q) {
  const out = [];
  for (let i = 0; i < q.length;) {
    const c = q[i];
    if (c === " ") i++;
    else if (c === "(" || c === ")") { out.push({ kind: c }); i++; }
    else if (c === '"') {
      const end = q.indexOf('"', i + 1);
      const j = end < 0 ? q.length : end;
      const prefix = q[j + 1] === "*";
      out.push({ kind: "phrase", text: q.slice(i + 1, j), prefix });
      i = j + 1 + (prefix ? 1 : 0);
    } else {
      let j = i;
      while (j < q.length && !' ()"'.includes(q[j])) j++;
      const w = q.slice(i, j);
      // NEAR is FTS5's only before a bracket; else it is a word.
      const op = SEARCH.operators.includes(w) && (w !== "NEAR" || q.slice(j).trimStart().startsWith("("));
      out.push(op ? { kind: w } : { kind: "word", text: w });
      i = j;
    }
  }
  return out;
}

// checkSearch is store's CheckSearch, on the cleaned search.
export function checkSearch(q) {
  const bytes = utf8Length(q);
  if (bytes > SEARCH.max_bytes) throw new APIError(400, format(SEARCH.messages.bytes, bytes, SEARCH.max_bytes), "q");
  let terms = 0, prefixes = 0;
  for (const t of searchTokens(q)) {
    // As store's searchTerms: a column filter and ^ off, operators no terms.
    const ws = t.kind === "word" ? [t.text.replace(/^[^:]*:/, "").replace(/^\^/, "")] : t.kind === "phrase" ? t.text.split(goSpaces).filter(Boolean) : [];
    if (t.prefix && ws.length) ws[ws.length - 1] += "*"; // a phrase's *: its last word's
    for (const w of ws) {
      if (w === "" || SEARCH.operators.includes(w)) continue;
      terms++;
      if (!w.endsWith("*")) continue;
      prefixes++;
      const letters = [...w.slice(0, -1).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "")].length;
      if (letters < SEARCH.min_prefix_runes) throw new APIError(400, format(SEARCH.messages.prefix, SEARCH.min_prefix_runes, w), "q");
    }
  }
  if (terms > SEARCH.max_terms) throw new APIError(400, format(SEARCH.messages.terms, terms, SEARCH.max_terms), "q");
  if (prefixes > SEARCH.max_prefix_terms) throw new APIError(400, format(SEARCH.messages.prefixes, prefixes, SEARCH.max_prefix_terms), "q");
}

// parseSearch reads a cleaned search as FTS5's grammar does: words side
// by side are one group, AND-ed (FTS5's exprlist, which binds tighter than
// any operator, and takes no bracket beside it); then NOT, AND, OR, loosest
// last. The tree is of {op, a, b} and {word, prefix} nodes; raw is the
// search as given, for the server's message when it is not a search.
export function parseSearch(q, raw) {
  // FTS5 ends a word at a *: AND* is AND and a * no rule takes.
  const toks = searchTokens(q).flatMap((t) => {
    const op = t.kind === "word" && t.text.replace(/\*+$/, "");
    return op && op !== t.text && op !== "NEAR" && SEARCH.operators.includes(op) ? [{ kind: op }, { kind: "*" }] : [t];
  });
  let i = 0, unsupported = null;
  const bad = () => new APIError(400, format(SEARCH.messages.syntax, raw), "q");
  // A "phrase" of one word is that word (a * after its quote makes it a
  // prefix); of several, the site cannot answer without word positions,
  // which it says once the search has parsed (a search that is no search
  // gets the server's message first).
  // A word or phrase with no word of the index's in it ("-") is no node
  // (null), which FTS5 leaves out of what holds it: X AND "-" is X.
  const word = (t) => {
    let leaf;
    if (t.kind === "phrase") {
      const ws = t.text.split(goSpaces).filter(Boolean);
      if (ws.length > 1) unsupported ??= PHRASES;
      leaf = { word: ws.join(" "), prefix: t.prefix };
    } else {
      const prefix = t.text.endsWith("*");
      leaf = { word: prefix ? t.text.slice(0, -1) : t.text, prefix };
    }
    // Several words of the index in one ("Douma's", a_b) are a phrase to
    // FTS5 too: their words side by side.
    const n = words(leaf.word).length;
    if (n > 1) unsupported ??= PHRASES;
    return n ? leaf : null;
  };
  const node = (op, a, b) => (a === null ? b : b === null ? a : { op, a, b });
  const isWord = (t) => t && (t.kind === "word" || t.kind === "phrase");
  const atom = () => {
    const t = toks[i];
    if (t?.kind === "(") {
      i++;
      const e = or();
      if (toks[i++]?.kind !== ")") throw bad();
      return e;
    }
    if (t?.kind === "NEAR") throw new APIError(400, "a published site does not search with NEAR: search the live archive", "q");
    if (!isWord(t)) throw bad();
    let e = word(toks[i++]);
    while (isWord(toks[i])) e = node("AND", e, word(toks[i++]));
    return e;
  };
  const not = () => {
    let e = atom();
    while (toks[i]?.kind === "NOT") { i++; e = node("NOT", e, atom()); }
    return e;
  };
  const and = () => {
    let e = not();
    while (toks[i]?.kind === "AND") { i++; e = node("AND", e, not()); }
    return e;
  };
  const or = () => {
    let e = and();
    while (toks[i]?.kind === "OR") { i++; e = node("OR", e, and()); }
    return e;
  };
  const tree = or();
  if (i < toks.length) throw bad();
  if (unsupported) throw new APIError(400, unsupported, "q");
  return tree ?? { word: "", prefix: false }; // no word at all: nothing found
}


// searchAgency is the agency a search names (lexicon.AgencyOf over the
// publish's table of its keys, keys), whose photos it finds whatever
// their captions say, as the server's does; null for none.
export function searchAgency(raw, keys) {
  const name = goTrim(raw).replace(/^[" ]+|[" ]+$/g, ""); // Go's strings.Trim(q, `" `)
  return keys[agencyKey(name)] ?? null;
}

const PHRASES = "a published site finds words, not \"phrases\": leave out the quotes, or search the live archive";

// evaluate is the set of photo numbers a search tree (parseSearch) finds
// in the site's index: shard(w) is the piece of the index that files the
// words beginning as w does, {index: {word: [first, gap, …]}, keys: its
// words sorted}, or null (treeWords names the words to load it for).
export function evaluate(e, shard) {
  if (e.op) {
    const a = evaluate(e.a, shard), b = evaluate(e.b, shard);
    if (e.op === "OR") return new Set([...a, ...b]);
    return new Set([...a].filter((k) => (e.op === "AND" ? b.has(k) : !b.has(k))));
  }
  // A word the index splits into several (its tokens) needs them all.
  let result = null;
  for (const w of words(e.word)) {
    const got = new Set();
    const s = shard(w);
    const add = (word) => {
      let k = 0;
      for (const gap of s.index[word] || []) got.add((k += gap));
    };
    if (s && e.prefix) {
      for (let i = lowerBound(s.keys, w); i < s.keys.length && s.keys[i].startsWith(w); i++) add(s.keys[i]);
    } else if (s) add(w);
    result = result ? new Set([...result].filter((k) => got.has(k))) : got;
  }
  return result || new Set();
}

// treeWords are the index's words a search tree looks up.
export const treeWords = (e) => (e.op ? [...treeWords(e.a), ...treeWords(e.b)] : words(e.word));

// searchTree reads the full-text search raw as the server does (its
// spaces trimmed as web.ParseFilter trims them): null when it has no
// words to find (as the server's empty search, which finds every photo),
// else its tree; it throws what the server refuses, with its message.
export function searchTree(raw) {
  raw = goTrim(raw);
  const q = ftsClean(raw);
  if (q === "") return null;
  checkSearch(q);
  return parseSearch(q, raw);
}

function lowerBound(a, x) {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (a[m] < x) lo = m + 1;
    else hi = m;
  }
  return lo;
}

// The place names a search reads (gazetteer's SearchSpellings.Widen),
// over the table the publisher wrote ({keys, groups}; the places some of
// whose spellings the site's captions hold): a search of words alone
// (no "phrase", operator, bracket or prefix*) one run of whose words (up
// to four) is a place's name finds that place's spellings in either
// script as one. TestSiteVectors holds it to the Go rule's answers.
const MAX_NAME_WORDS = 4;
const ARABIC_PARTICLES = "وفبلك";
const NOT_BARE = /["*()_“”«»]/;

const isArabic = (c) => {
  const r = c.codePointAt(0);
  return (r >= 0x600 && r <= 0x6ff) || (r >= 0x750 && r <= 0x77f) || (r >= 0xfb50 && r <= 0xfeff);
};

// arabicStems is lexicon.ArabicStems: a folded Arabic word without the
// particles written onto it, one form for each taken off, two at most,
// each leaving three letters or more; li- before al- gives the article
// back ("للرقه": لرقه, الرقه).
export function arabicStems(w) {
  const out = [];
  let rest = [...w];
  for (let n = 0; n < 2; n++) {
    if (rest.length === 0 || !ARABIC_PARTICLES.includes(rest[0]) || rest.length - 1 < 3) break;
    const r = rest[0];
    rest = rest.slice(1);
    out.push(rest.join(""));
    if (r === "ل" && rest[0] === "ل" && rest.length > 3) return [...out, "ا" + rest.join("")];
  }
  return out;
}

// widen reads the search raw by the table t: {parts, spelled}, parts the
// search keys one of which each part needs (a word as typed, or a
// place's spellings), spelled the places named with their spellings; null
// when it is searched as it is.
export function widen(raw, t) {
  if (!t) return null;
  const q = Array.from(raw, (c) => (/[\p{L}\p{N}\p{Mn}]/u.test(c) || "*()_\"“”«»".includes(c) ? c : " ")).join("");
  if (NOT_BARE.test(q)) return null;
  const tokens = q.split(" ").filter(Boolean);
  const ws = [];
  for (const tok of tokens) {
    const w = words(tok);
    if (w.length !== 1 || SEARCH.operators.includes(tok)) return null;
    ws.push(w[0]);
  }
  const parts = [], spelled = [];
  let named = false;
  for (let i = 0; i < ws.length;) {
    const at = nameAt(t, ws, i);
    if (!at) {
      parts.push([tokens[i]]);
      i++;
      continue;
    }
    const sp = t.groups[at.group];
    const part = sp.search.slice(), key = withoutArticles(at.key);
    if (!key.split(" ").some((w) => part.includes(w)) && !part.includes(key)) part.push(key);
    parts.push(part);
    if (!spelled.some((x) => x.place === sp.place)) spelled.push(sp);
    named = true;
    i += at.n;
  }
  return named ? { parts, spelled } : null;
}

// LATIN_ARTICLES are the Arabic article as Latin spellings write it apart.
const LATIN_ARTICLES = ["al", "el", "ar", "er", "as", "es", "ad", "ed", "az", "ez", "at", "et", "an", "en", "ul", "ash", "ath", "adh"];

// withoutArticles is gazetteer's: a key of several words without the
// article among them, when two words or more are left.
function withoutArticles(key) {
  const ws = key.split(" ").filter(Boolean), kept = ws.filter((w) => !LATIN_ARTICLES.includes(w));
  return kept.length < 2 || kept.length === ws.length ? key : kept.join(" ");
}

// nameAt is the longest run of words from i that is a place's name:
// {group, n, key}, or null.
function nameAt(t, ws, i) {
  const firsts = [ws[i], ...(isArabic(ws[i]) ? arabicStems(ws[i]) : [])];
  for (let n = Math.min(MAX_NAME_WORDS, ws.length - i); n >= 1; n--) {
    const rest = ws.slice(i + 1, i + n).join(" ");
    for (const first of firsts) {
      const key = rest ? `${first} ${rest}` : first;
      if (Object.hasOwn(t.keys, key)) return { group: t.keys[key], n, key };
    }
  }
  return null;
}

// widenedTree is the search tree (evaluate's) of widen's parts: each
// part's keys OR-ed, the parts AND-ed.
export function widenedTree(parts) {
  const any = (keys) => keys.map((k) => ({ word: k, prefix: false })).reduce((a, b) => ({ op: "OR", a, b }));
  return parts.map(any).reduce((a, b) => ({ op: "AND", a, b }));
}
