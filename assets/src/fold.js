// fold is how the page compares words a reader types with names and
// captions: lower case, accents and Arabic marks off, the Arabic letter
// variants as one (as the publisher's searchFold folds them: NFD, the
// marks off, then lexicon.FoldArabic), Arabic-Indic digits as ASCII.
export function fold(s) {
  return foldArabic(s.normalize("NFD").replace(/\p{Mn}/gu, ""));
}

// foldArabic is lexicon.FoldArabic: each letter lowered alone, as Go's
// unicode.ToLower does (no final sigma, İ as i); the Arabic short vowels, dagger
// alif and tatweel off; the alef, yeh, teh marbuta, waw and kaf forms as
// one; Arabic-Indic and Persian digits as ASCII.
export function foldArabic(s) {
  return Array.from(s, lower).join("").replace(/[\u064b-\u065f\u0670\u0640]/g, "")
    .replace(/[أإآٱ]/g, "ا").replace(/[ىئی]/g, "ي").replace(/ة/g, "ه").replace(/ؤ/g, "و").replace(/ک/g, "ك")
    .replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x660)).replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x6f0));
}

// lower is unicode.ToLower of one letter: JavaScript's but for İ, whose
// lower case there is i and a combining dot.
const lower = (c) => (c === "İ" ? "i" : c.toLowerCase());

// agencyKey is lexicon's: a name lowered, folded (FoldArabic), its words
// (letters and 0–9-like digits) alone, one space between.
export const agencyKey = (s) => foldArabic(s).split(/[^\p{L}\p{Nd}]+/u).filter(Boolean).join(" ");
