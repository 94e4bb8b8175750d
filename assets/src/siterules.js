// The server's read rules as a published site applies them: a filter's
// checks and window (web.ParseFilter, photo.ParseDate, photo.Window), the
// parameters' rules, the server's messages. The limits and messages are
// data the server writes (rules.json: internal/http/web SiteRules); what
// is code here is checked against the server's own answers on generated
// inputs (assets/test/vectors.test.mjs over
// internal/http/publish/testdata/site-vectors.json). No DOM: Node imports
// this module as it is.

import rules from "./rules.json" with { type: "json" };
import { agencyKey } from "./fold.js";

export { rules };

// format is Go's fmt.Sprintf for the verbs the server's messages use
// (%q, %d, %s), so that the messages in rules.json read here as there.
export function format(f, ...args) {
  let i = 0;
  return f.replace(/%[qds]/g, (verb) => {
    const a = args[i++];
    return verb === "%q" ? goQuote(String(a)) : String(a);
  });
}

// goQuote is Go's strconv.Quote: printable runes as they are (letters,
// marks, numbers, punctuation, symbols, the ASCII space), the others
// escaped as \n, \x01, \u2009, \U0001f600.
export function goQuote(s) {
  const named = { "\x07": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v" };
  let out = '"';
  for (const c of s) {
    const r = c.codePointAt(0);
    if (c === '"' || c === "\\") out += "\\" + c;
    else if (PRINT.test(c)) out += c;
    else if (named[c]) out += named[c];
    else if (r < 0x20 || r === 0x7f) out += "\\x" + r.toString(16).padStart(2, "0");
    else if (r < 0x10000) out += "\\u" + r.toString(16).padStart(4, "0");
    else out += "\\U" + r.toString(16).padStart(8, "0");
  }
  return out + '"';
}
const PRINT = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

// goTrim is Go's strings.TrimSpace (unicode.IsSpace: U+0085 is a space,
// U+FEFF is not, where JavaScript's trim() has it the other way round).
const GO_SPACE = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
export const goSpaces = new RegExp(`[${GO_SPACE}]+`, "u");
const TRIM = new RegExp(`^[${GO_SPACE}]+|[${GO_SPACE}]+$`, "gu");
export const goTrim = (s) => s.replace(TRIM, "");

// intParam is web.IntParam: a whole number in [min, max], or def, given
// once; its messages are the server's (rules.messages).
export function intParam(q, name, def, min, max) {
  const all = q.getAll(name);
  if (all.length > 1) throw new APIError(400, format(rules.messages.once, all.length, all.join(", ")), name);
  const v = goTrim(q.get(name) || "");
  if (v === "") return def;
  const n = /^[+-]?\d+$/.test(v) ? Number(v) : NaN;
  if (!(n >= min && n <= max)) throw new APIError(400, format(rules.messages.int, v, min, max), name);
  return n;
}

// checkParams checks a read path's parameters by the server's rules for
// it (rules.params: web's ParseFilter, IntRule and EnumRule), in the
// server's order, with its messages.
export function checkParams(path, q) {
  const r = rules.params[path];
  if (!r) return;
  const enums = () => {
    for (const p of r.enums || []) {
      const v = q.get(p.name) || "";
      if (v !== "" && !p.values.includes(v)) throw new APIError(400, format(rules.messages.enum, v, p.want), p.name);
    }
  };
  if (r.enums_first) enums();
  if (r.filters) checkFilter(q);
  for (const p of r.ints || []) {
    const n = intParam(q, p.name, p.default, p.min, p.max);
    if (n < 0) throw new APIError(400, rules.messages.zoom_required, p.name); // a rule with no default
  }
  if (!r.enums_first) enums();
}

const FM = rules.filter_messages;
const bad = (name, key, ...args) => new APIError(400, format(FM[key], ...args), name);

// parseDate is photo.ParseDate: YYYY, YYYY-MM or YYYY-MM-DD of a real day
// in 1900–2100, as [first day, last day, normal form] (days as YYYYMMDD,
// the form as Date.String writes it), or null.
export function parseDate(v) {
  const parts = goTrim(v).split("-");
  if (parts.length > 3 || parts[0].length !== 4) return null;
  if (parts.some((p, i) => !/^[+-]?\d+$/.test(p) || (i > 0 && p.length !== 2))) return null;
  const [y, m = 0, d = 0] = parts.map(Number);
  if (y < 1900 || y > 2100 || (parts.length >= 2 && (m < 1 || m > 12))) return null;
  if (parts.length === 3 && (d < 1 || new Date(Date.UTC(y, m - 1, d)).getUTCDate() !== d)) return null;
  const last = parts.length === 1 ? 1231 : parts.length === 2 ? m * 100 + new Date(Date.UTC(y, m, 0)).getUTCDate() : m * 100 + d;
  const pad = (n) => String(n).padStart(2, "0");
  const text = [String(y), pad(m), pad(d)].slice(0, parts.length).join("-");
  return [y * 10000 + (parts.length === 1 ? 101 : m * 100 + (parts.length === 3 ? d : 1)), y * 10000 + last, text];
}

// goFloat is strconv.ParseFloat: a float literal as Go writes one —
// decimal or hexadecimal (0x1p-2, its exponent required), "_" between
// digits — or NaN when it is not one (Inf and NaN, which Go reads and the
// rules then refuse, are NaN here too).
const DEC = /^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const HEX = /^([+-]?)0[xX]_?((?:[0-9a-fA-F](?:_?[0-9a-fA-F])*)?)(?:\.((?:[0-9a-fA-F](?:_?[0-9a-fA-F])*)?))?[pP]([+-]?\d(?:_?\d)*)$/;
export function goFloat(v) {
  if (DEC.test(v)) return Number(v.replaceAll("_", ""));
  const m = HEX.exec(v);
  if (!m || m[2] + (m[3] || "") === "") return NaN;
  const [int, frac = ""] = [m[2], m[3]].map((d) => d?.replaceAll("_", ""));
  const mantissa = parseInt(int + frac || "0", 16) / 16 ** frac.length;
  return (m[1] === "-" ? -1 : 1) * mantissa * 2 ** Number(m[4].replaceAll("_", ""));
}

// parseFilter is web.ParseFilter, in its order and with its messages: it
// throws an APIError for a bad filter, and returns the filter: the
// window's days (from and to as parseDate gives them, or null), the box
// ([minLon, minLat, maxLon, maxLat], or null), each facet's values (a
// source's by its ID: agencyKeys are the publish's), the least
// confidence, unplaced and verified, and the linked event ("any", a key
// as "ucdp-ged:270123", or "").
export function parseFilter(q, agencyKeys = {}) {
  for (const name of rules.once_filters) {
    const all = q.getAll(name);
    if (all.length > 1) throw new APIError(400, format(rules.messages.once, all.length, all.join(", ")), name);
  }
  const days = {};
  for (const name of ["from", "to"]) {
    const v = goTrim(q.get(name) || "");
    if (v === "") continue;
    days[name] = parseDate(v);
    if (!days[name]) throw bad(name, "date", v);
  }
  if (days.from && days.to && days.from[0] > days.to[1]) throw bad("to", "to_before", days.to[2], days.from[2]);
  let bbox = null;
  const box = goTrim(q.get("bbox") || "");
  if (box) {
    const parts = box.split(",");
    if (parts.length !== 4) throw bad("bbox", "bbox_shape", box);
    const n = parts.map((p) => goFloat(goTrim(p)));
    const i = n.findIndex((x) => !Number.isFinite(x));
    if (i >= 0) throw bad("bbox", "bbox_number", parts[i]);
    if (n[0] < -180 || n[2] > 180 || n[1] < -90 || n[3] > 90) throw bad("bbox", "bbox_range", box);
    if (n[0] > n[2] || n[1] > n[3]) throw bad("bbox", "bbox_order", box);
    bbox = n;
  }
  // Any name of a source known in both scripts is its ID (lexicon.AgencyID
  // over the publish's keys).
  const agencies = multiParam(q, "agency").map((a) => agencyKeys[agencyKey(a)] ?? a);
  const agreements = multiParam(q, "agreement");
  for (const v of agreements) {
    if (!["agrees", "near", "disagrees"].includes(v)) throw bad("agreement", "agreement", v);
  }
  const reuse = goTrim(q.get("reuse") || "");
  if (reuse && reuse !== "copy" && reuse !== "conflict") throw bad("reuse", "reuse", reuse);
  const unplaced = goTrim(q.get("unplaced") || "");
  if (!["", "0", "false", "1", "true"].includes(unplaced)) throw bad("unplaced", "unplaced", unplaced);
  const verified = goTrim(q.get("verified") || "");
  if (!["", "0", "false", "1", "true"].includes(verified)) throw bad("verified", "verified", verified);
  const conf = goTrim(q.get("min_confidence") || "");
  if (conf && !(goFloat(conf) >= 0 && goFloat(conf) <= 1)) throw bad("min_confidence", "min_confidence", conf);
  const event = goTrim(q.get("event") || "");
  if (event && event !== "any" && !/^[^: \t\r\n]+:[^ \t\r\n]+$/.test(event)) throw bad("event", "event", event);
  return { from: days.from || null, to: days.to || null, bbox, agencies, photographers: multiParam(q, "photographer"),
    places: multiParam(q, "place"), governorates: multiParam(q, "governorate"), agreements,
    minConfidence: conf ? goFloat(conf) : 0, unplaced: unplaced === "1" || unplaced === "true", verified: verified === "1" || verified === "true", event };
}

// multiParam is web.MultiParam: a parameter's values trimmed, without
// blanks or repeats, at most rules.max_values.
export function multiParam(q, name) {
  const out = [];
  for (const v of q.getAll(name).map(goTrim)) {
    if (v !== "" && !out.includes(v) && out.length < rules.max_values) out.push(v);
  }
  return out;
}

// checkFilter is parseFilter, then what a published site cannot answer
// refused with a message that says so, never answered as if the filter
// were not there.
export function checkFilter(q) {
  const f = parseFilter(q); // its values aside, only whether it parses
  // (The linked events it answers: publish writes each event's photos.)
  if (goTrim(q.get("reuse") || "")) throw new APIError(400, "a published site does not filter by reuse: ask the live archive", "reuse");
  return f;
}

// windowOf is a parsed filter's window as photo.Window has it: its first
// and last days (YYYYMMDD), null where it is open.
export const windowOf = (f) => ({ from: f.from ? f.from[0] : null, to: f.to ? f.to[1] : null });

// overlaps is the window rule, the server's (photo.Window): a photo whose
// dated period, its first to its last day (YYYYMMDD), overlaps the window
// from–to (a null bound is open) is in it; an undated one (first 0) is in
// no window, and every photo is in no window at all. Every read of a window in the scripts goes through it.
export function overlaps(first, last, from, to) {
  if (from === null && to === null) return true;
  return first !== 0 && (from === null || last >= from) && (to === null || first <= to);
}



export const utf8Length = (s) => new TextEncoder().encode(s).length;

export class APIError extends Error {
  constructor(status, message, parameter) {
    super(parameter ? `${parameter}: ${message}` : message);
    this.status = status;
    this.parameter = parameter;
  }
}


// laterLabel is the later of two labels of one facet value, as SQLite's
// max() orders text (the server's facet label: store's facetColumns).
// JavaScript compares UTF-16 units, which put U+FF21 after U+1D538:
// compared by code point, as SQLite compares UTF-8 bytes.
export const laterLabel = (a, b) => (codePoints(b) > codePoints(a) ? b : a);
const codePoints = (s) => Array.from(s, (c) => c.codePointAt(0).toString(16).padStart(6, "0")).join("");
