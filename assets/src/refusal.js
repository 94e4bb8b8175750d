// A search the server (or a published site's script) refuses is said in
// the reader's language: its message, one of the search's formats
// (rules.search.messages, the store's words), is read back to its kind
// and values and said in the catalogue's words (search.refused.*). A
// message of no known format keeps its English, set apart left to right
// so that an Arabic line does not reorder it.

import { rules } from "./siterules.js";
import { lang, t } from "./i18n.js";

// formatPattern is a Go format's regular expression: %d a number, %q a
// quoted string, %s any text.
function formatPattern(f) {
  const parts = f.split(/(%[dqs])/);
  return new RegExp("^" + parts.map((p) => (p === "%d" ? "(\\d+)" : p === "%q" ? '("(?:[^"\\\\]|\\\\.)*")' : p === "%s" ? "(.*)" : p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("") + "$", "s");
}

function unquote(q) {
  try {
    return JSON.parse(q);
  } catch {
    return q;
  }
}

// refusalText is message in the reader's words: the server's own on an
// English page.
export function refusalText(message) {
  if (lang === "en") return message;
  for (const [kind, f] of Object.entries(rules.search.messages)) {
    const m = formatPattern(f).exec(message);
    if (!m) continue;
    const v = m.slice(1).map((x) => (/^\d+$/.test(x) ? Number(x) : x.startsWith('"') ? unquote(x) : x));
    return t(`search.refused.${kind}`, { n: v[0], max: v[1], term: v[1], q: v[0] });
  }
  return t("search.refused.other", { message: `\u2066${message}\u2069` });
}
