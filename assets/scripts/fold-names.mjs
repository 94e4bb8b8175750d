// fold-names.mjs FILE: folds each name of the JSON array in FILE with the
// published site's fold (src/placesearch.js over src/rules.json) and
// prints, as JSON, [fine, skeleton, consonants] for each, the two keys as
// hex of their bytes. TestFoldInJSMatchesGo compares them with Go's.
// It is bundled by esbuild first (the sources are ES modules).
import { readFileSync } from "node:fs";
import { makeFold } from "../src/placesearch.js";
import rules from "../src/rules.json";

const fold = makeFold(rules.fold);
const hex = (s) => [...s].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
const names = JSON.parse(readFileSync(process.argv[2], "utf8"));
process.stdout.write(JSON.stringify(names.map((n) => {
  const k = fold(n);
  return [hex(k.fine), hex(k.skeleton), k.consonants];
})));
