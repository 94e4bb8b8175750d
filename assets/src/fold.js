// fold is how the page compares words a reader types with names and
// captions: lower case, accents and Arabic marks off, the Arabic letter
// variants as one (as the publisher's searchFold and lexicon.FoldArabic
// fold them), Arabic-Indic digits as ASCII. Each letter is lowered alone,
// as Go's unicode.ToLower does (no final sigma).
export function fold(s) {
  return Array.from(s.normalize("NFD").replace(/\p{Mn}/gu, ""), (c) => c.toLowerCase()).join("")
    .replace(/[أإآٱ]/g, "ا").replace(/[ىئی]/g, "ي").replace(/ة/g, "ه").replace(/ؤ/g, "و").replace(/ک/g, "ك")
    .replace(/ـ/g, "").replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x660)).replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x6f0));
}
