package caption

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// Credit is who took a photo and for whom.
type Credit struct {
	// Photographer is the person credited, or "" for handouts, pool and
	// stringer credits and credits that name no one.
	Photographer string
	// Agency is the agency or outlet the photo is credited to, normalised
	// ("AFP Photo" → "AFP", "REUTERS" → "Reuters", "Associated Press" →
	// "AP"; a source known under names in both scripts by its ID in
	// lexicon.Agencies: "الدفاع المدني" and "White Helmets" → "Syrian
	// Civil Defence"), a source the table lacks as the caption writes it,
	// or "".
	Agency string
}

// agency is a known agency: its canonical name and rank. When a credit
// names several, the highest rank wins: a wire agency over a photo agency
// it is distributed through, a photo agency over Getty Images, and any of
// them over the source of a handout (SANA, the Civil Defence).
type agency struct {
	name string
	rank int
}

const (
	rankSource = iota
	rankGuess
	rankDistributor
	rankPhotoAgency
	rankWire
)

// agencies and arAgencies are the known agencies, from one table: by how
// English credits spell them (lower case), and by the words Arabic
// captions write them in.
var agencies, arAgencies = knownAgencies()

// knownAgencies reads the table of agencies. A spelling in Arabic letters
// is the Arabic reader's, its words as written (folded on start), with
// a mark (lexicon.SpellingMark) first when the words are a credit only in
// brackets or quotes, or at the caption's start or end ("~أ ب",
// "~الفرنسية"), or right after an opening bracket ("(الجزيرة", which is
// a region too); any other is the English reader's.
func knownAgencies() (map[string]agency, []arAgency) {
	m := map[string]agency{}
	var ar []arAgency
	add := func(rank int, name string, spellings ...string) {
		m[strings.ToLower(name)] = agency{name, rank}
		for _, s := range spellings {
			if !strings.ContainsFunc(s, lexicon.IsArabic) {
				m[s] = agency{name, rank}
				continue
			}
			mark, words := lexicon.SpellingMark(s)
			ar = append(ar, arAgency{words: strings.Fields(words), name: name,
				bare: mark == lexicon.MarkAnywhere, bracketed: mark == lexicon.MarkBracketed})
		}
	}
	add(rankWire, "Reuters", "reuter", "thomson reuters", "رويترز")
	add(rankWire, "AFP", "agence france-presse", "agence france presse", "afp photo", "afp photos", "afpphoto",
		"أ ف ب", "وكالة الصحافة الفرنسية", "~وكالة الأنباء الفرنسية", "~الفرنسية")
	add(rankWire, "AP", "associated press", "the associated press", "ap photo", "ap photos", "ap images",
		"~أ ب", "أسوشيتد برس", "أسوشيتدبرس")
	add(rankWire, "EPA", "epa-efe", "european pressphoto agency", "epa photo", "~أ ب أ")
	add(rankWire, "EFE")
	add(rankWire, "Anadolu Agency", "anadolu", "aa", "anadolu ajansi", "anadolu agency photo", "وكالة الأناضول", "الأناضول")
	add(rankWire, "Xinhua", "xinhua news agency", "xinhua news", "شينخوا")
	add(rankWire, "dpa", "deutsche presse-agentur", "picture alliance", "picture-alliance")
	add(rankWire, "UPI", "united press international")
	add(rankWire, "Sputnik", "ria novosti", "sputnik news")
	add(rankWire, "TASS", "itar-tass")
	add(rankWire, "Kyodo", "kyodo news")
	add(rankWire, "Yonhap")
	add(rankWire, "Bloomberg", "bloomberg news")
	add(rankPhotoAgency, "NurPhoto", "nur photo")
	add(rankPhotoAgency, "SOPA Images", "sopa", "sopa images/lightrocket")
	add(rankPhotoAgency, "LightRocket")
	add(rankPhotoAgency, "ZUMA Press", "zuma", "zuma wire", "zumapress", "zuma press wire")
	add(rankPhotoAgency, "Pacific Press", "pacific press agency")
	add(rankPhotoAgency, "Sipa", "sipa press", "sipa usa")
	add(rankPhotoAgency, "Abaca", "abacapress", "abaca press")
	add(rankPhotoAgency, "Corbis", "corbis via getty images")
	add(rankPhotoAgency, "Polaris", "polaris images")
	add(rankPhotoAgency, "Redux", "redux pictures")
	add(rankPhotoAgency, "Rex/Shutterstock", "rex", "shutterstock", "rex features")
	add(rankPhotoAgency, "Barcroft Media", "barcroft", "barcroft images")
	add(rankPhotoAgency, "Demotix")
	add(rankPhotoAgency, "Middle East Images")
	add(rankPhotoAgency, "Jordan Pix", "jordanpix")
	add(rankPhotoAgency, "Metrography")
	add(rankPhotoAgency, "Magnum Photos", "magnum")
	add(rankPhotoAgency, "VII", "vii photo")
	add(rankPhotoAgency, "Panos Pictures", "panos")
	add(rankPhotoAgency, "NOOR", "noor images")
	add(rankPhotoAgency, "Hans Lucas")
	add(rankPhotoAgency, "Imago", "imago images")
	add(rankPhotoAgency, "The New York Times", "new york times", "nyt")
	add(rankPhotoAgency, "The Washington Post", "washington post")
	add(rankPhotoAgency, "The Guardian", "guardian")
	add(rankPhotoAgency, "Al Jazeera", "aljazeera", "(قناة الجزيرة", "(الجزيرة")
	add(rankPhotoAgency, "BBC")
	add(rankPhotoAgency, "CNN")
	add(rankDistributor, "Getty Images", "getty", "gettyimages", "getty images news")
	add(rankDistributor, "Storyful")
	add(rankSource, "Syrian Presidency", "syrian presidency facebook page")
	add(rankSource, "UNRWA", "unwra")
	add(rankSource, "DigitalGlobe", "digital globe", "maxar", "maxar technologies", "planet labs", "airbus defence and space")
	add(rankSource, "ICRC")
	add(rankSource, "MSF")
	add(rankSource, "WFP")
	add(rankSource, "Amaq", "amaq news agency")
	add(rankSource, "Thiqa News", "thiqa")
	add(rankSource, "Russian Defence Ministry", "russian defense ministry", "russian ministry of defence", "russian ministry of defense")
	// The sources known under names in both scripts: one table, the
	// archive's (lexicon.Agencies), filed under its IDs.
	for _, a := range lexicon.Agencies() {
		m[strings.ToLower(a.ID)] = agency{a.ID, rankSource}
		m[strings.ToLower(a.English)] = agency{a.ID, rankSource}
		for _, s := range a.Spellings {
			mark, words := lexicon.SpellingMark(s)
			switch {
			case !strings.ContainsFunc(words, lexicon.IsArabic):
				m[words] = agency{a.ID, rankSource}
			case mark != lexicon.MarkWhole: // a whole bracketed credit is sourceCredit's
				ar = append(ar, arAgency{words: strings.Fields(lexicon.FoldArabic(words)), name: a.ID,
					bare: mark == lexicon.MarkAnywhere, bracketed: mark == lexicon.MarkBracketed})
			}
		}
	}
	return m, ar
}

// Credit words that say how a photo came, not who took it.
var creditMarkers = map[string]bool{
	"handout": true, "ho": true, "file": true, "files": true, "file photo": true, "pool": true,
	"stringer": true, "str": true, "staff": true, "social media": true, "social media website": true,
	"handout photo": true, "photo": true, "photos": true, "tpx": true, "courtesy": true, "via": true,
	"reuters tv": true, "reuters tv via reuters": true, "video grab": true, "still image": true,
	"pool photo": true, "ho handout": true, "epa file": true, "afp file": true, "anonymous": true,
	"reuters photographer": true, "freelance": true,
}

// creditPrefixes come before the names in a credit.
var creditPrefixes = []string{
	"photo credit should read", "photo credit:", "photo credit", "photos credit", "credit:", "credit",
	"photographs by", "photograph by", "photograph:", "photographs:", "photos by", "photo by", "photo:",
	"photos:", "pictures by", "picture by", "picture:", "image by", "image:", "photo courtesy of",
	"courtesy of", "photographer:", "photographer :", "source:", "source :", "source", "by", "copyright photo:",
	"copyright:", "copyright",
}

// creditCountries are country names a trailing credit may swallow from the
// sentence before it ("…, Syria / TRTWorld"): they are no one's name. They
// are the countries the gazetteer covers.
var creditCountries = func() map[string]bool {
	m := map[string]bool{}
	for _, name := range lexicon.CountryNames {
		m[strings.ToLower(name)] = true
	}
	return m
}()

// parseCredit reads the names in one credit such as "Photo by Bassam
// Khabieh/Reuters", "REUTERS/SANA/Handout", "AP Photo/Hassan Ammar, File" or
// "Zein Al-Rifai/AFP/Getty Images". ok is false when s is not a credit: it
// neither begins with a credit word (Photo by, Credit:) nor names a known
// agency with a slash, beside another part, or a photo agency alone.
func parseCredit(s string) (c Credit, ok bool) {
	s, low, slash, ok := creditLead(s)
	if s == "" {
		return Credit{}, false
	}
	// "(Roya source photo)", "(SANA photo)": an outlet named with the
	// word photo after it.
	if !ok && !slash {
		if name, found := sourcePhoto(s, low); found {
			return Credit{Agency: name}, true
		}
	}
	var parts [12]string
	n := splitCredit(s, low, parts[:0])
	// Archive records write "SURNAME, Given".
	if len(n) == 2 && !slash && surnameFirst(n[0], n[1]) {
		n[0], n[1] = n[1]+" "+n[0], ""
		n = n[:1]
	}
	cr := creditReader{best: -1, slash: slash, parts: len(n)}
	for _, part := range n {
		ok = cr.read(part) || ok
	}
	// A guessed outlet makes a credit only beside a slash and a name or a
	// credit word ("SARC/Handout"), or when it is a brand ("Syria /
	// TRTWorld"), never two acronyms alone ("the SDF/YPG").
	c = cr.c
	if !ok && cr.guessed && slash && (c.Photographer != "" || cr.marked || brandLike(c.Agency) && !isAcronym(c.Agency)) {
		ok = true
	}
	if !ok {
		return Credit{}, false
	}
	return c, true
}

// creditLead trims a credit and reads what leads it: "©", "Photo for
// Washington Post by Name", a credit word (Photo by, Credit:). It
// returns the rest, in lower case too, whether it holds a slash, and
// whether the lead makes it a credit; s is "" when it cannot be one.
func creditLead(s string) (rest, low string, slash, ok bool) {
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "()[]."))
	if s == "" || len(s) > 160 {
		return "", "", false, false
	}
	// "© Syria Civil Defence", "©UNICEF/Al Shami": a credit.
	if after, found := strings.CutPrefix(s, "©"); found {
		s, ok = strings.TrimSpace(after), true
	}
	slash = strings.Contains(s, "/")
	low = lowerASCII(s)
	// "Photo for Washington Post by Liz Sly": the outlet, then the name.
	for _, p := range []string{"photo for ", "photos for ", "photograph for ", "picture for "} {
		if strings.HasPrefix(low, p) {
			if by := strings.LastIndex(low, " by "); by > len(p) {
				s = s[by+4:] + "/" + s[len(p):by]
				low, slash, ok = lowerASCII(s), true, true
			}
			break
		}
	}
	for _, p := range creditPrefixes {
		if strings.HasPrefix(low, p) && (len(low) == len(p) || !isLetterByte(low[len(p)])) {
			s, low = strings.TrimSpace(s[len(p):]), strings.TrimSpace(low[len(p):])
			ok = p != "by"
			break
		}
	}
	return s, low, slash, ok
}

// creditReader reads a credit's parts one by one into c.
type creditReader struct {
	c       Credit
	best    int  // the rank of c.Agency, -1 for none
	slash   bool // the credit holds a slash
	parts   int  // how many parts it has
	noOne   bool // a credit word says no one is named (Stringer, Handout)
	guessed bool // an outlet known only by its look (MEE, TRTWorld)
	marked  bool // a credit word stands beside it (Handout, Stringer)
}

// read takes one part: a country or picture number (passed over), a
// known agency, a credit word, an outlet by its look, a person. It
// returns true when the part alone makes the whole a credit.
func (cr *creditReader) read(part string) bool {
	key := lowerASCII(part)
	if creditCountries[key] || photoID(part) {
		return false
	}
	if a, found := agencyOf(key); found {
		cr.agency(a)
		return cr.parts > 1 || cr.slash || a.rank >= rankDistributor
	}
	if creditMarkers[key] {
		cr.marked = true
		if cr.c.Photographer == "" && (key == "stringer" || key == "str" || key == "staff" || key == "handout" || key == "ho") {
			cr.noOne = true
		}
		return false
	}
	if a, found := guessAgency(part); found && (cr.c.Photographer != "" && !strings.Contains(part, " ") || brandLike(part)) {
		// "Name/SMART": an acronym after the name is its outlet; "MEE/
		// Name", "/ TRTWorld": an acronym or a brand anywhere is.
		cr.agency(a)
		cr.guessed = true
		return false
	}
	if personName(part) {
		switch {
		case cr.c.Photographer == "" && !cr.noOne:
			cr.c.Photographer = tidyName(part)
		case cr.c.Photographer != "" && cr.slash && cr.best < rankGuess:
			// "Photo by Name/Metrography": what follows the
			// photographer's name is who they work for.
			cr.c.Agency, cr.best = part, rankGuess
		}
		return false
	}
	if a, found := guessAgency(part); found {
		cr.agency(a)
	}
	return false
}

// agency keeps a as the credit's agency when it outranks the one kept.
func (cr *creditReader) agency(a agency) {
	if a.rank > cr.best {
		cr.c.Agency, cr.best = a.name, a.rank
	}
}

// sourcePhoto reads a credit written as an outlet's name and "photo" or
// "source photo" after it; low is s in lower case.
func sourcePhoto(s, low string) (string, bool) {
	for _, suffix := range []string{" source photo", " photo", " photos"} {
		if strings.HasSuffix(low, suffix) {
			name := strings.TrimSpace(s[:len(s)-len(suffix)])
			words := strings.Fields(name)
			first, _ := utf8.DecodeRuneInString(name)
			if len(words) == 0 || len(words) > 3 || !unicode.IsUpper(first) || creditMarkers[lowerASCII(name)] {
				return "", false
			}
			if a, found := agencyOf(lowerASCII(name)); found {
				return a.name, true
			}
			return name, true
		}
	}
	return "", false
}

// photoID reports whether a credit part is an agency's picture number
// ("© UNICEF/UN012345/Al-Issa", "RTX2ONTS"): one word with three digits
// or more.
func photoID(part string) bool {
	if strings.ContainsAny(part, " ") {
		return false
	}
	digits := 0
	for i := 0; i < len(part); i++ {
		if part[i] >= '0' && part[i] <= '9' {
			digits++
		}
	}
	return digits >= 3
}

// isAcronym reports whether a credit part is one short word in capitals
// (MEE, SMART, ANHA).
func isAcronym(part string) bool {
	return !strings.Contains(part, " ") && utf8.RuneCountInString(part) <= 6 && strings.ToUpper(part) == part && strings.ToLower(part) != part
}

// brandLike reports whether a credit part is an outlet by its look alone:
// an acronym, or one word with capitals inside it (TRTWorld, NurPhoto),
// which a person's name written alone is not.
func brandLike(part string) bool {
	if isAcronym(part) {
		return true
	}
	if strings.Contains(part, " ") {
		return false
	}
	inner := false
	lower := false
	prev := rune(0)
	for i, r := range part {
		// A capital after a letter (TRTWorld, NurPhoto), not after a
		// hyphen or an apostrophe, which names have (Al-Issa, O'Neil).
		if i > 0 && unicode.IsUpper(r) && unicode.IsLetter(prev) {
			inner = true
		}
		lower = lower || unicode.IsLower(r)
		prev = r
	}
	return inner && lower && !strings.HasPrefix(part, "Mc") && !strings.HasPrefix(part, "Mac")
}

// surnameFirst reports whether a credit of two comma-separated parts is
// written "SURNAME, Given", as archive records write it: the first part in
// capitals, the second one word that is not.
func surnameFirst(a, b string) bool {
	return personName(a) && personName(b) && !strings.Contains(b, " ") &&
		strings.ToUpper(a) == a && strings.ToUpper(b) != b
}

// creditSeparators split a credit's parts within a slash-separated piece:
// "Name/NurPhoto via Getty Images".
var creditSeparators = []string{" via ", " for ", " - ", " – "}

// splitCredit splits a credit into its parts at slashes, commas, " via ",
// " for " and dashes, appending them to parts: "Name/NurPhoto via Getty
// Images" → Name, NurPhoto, Getty Images. low is s in lower case.
func splitCredit(s, low string, parts []string) []string {
	add := func(p string) {
		if p = strings.TrimSpace(strings.Trim(strings.TrimSpace(p), ".()[]")); p != "" {
			parts = append(parts, p)
		}
	}
	from := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '/' && s[i] != ',' && s[i] != '|' && s[i] != ';' {
			continue
		}
		// Within the piece s[from:i], split at the word separators.
		for k := from; k < i; k++ {
			if s[k] != ' ' {
				continue
			}
			for _, sep := range creditSeparators {
				if strings.HasPrefix(low[k:i], sep) {
					add(s[from:k])
					from = k + len(sep)
					k = from - 1
					break
				}
			}
		}
		add(s[from:i])
		from = i + 1
	}
	return parts
}

// agencyOf finds a known agency in a lower-case credit part, as the whole
// part or its last words ("Syria REUTERS", "Anadolu Agency Photo").
func agencyOf(key string) (agency, bool) {
	if strings.Contains(key, "  ") {
		key = strings.Join(strings.Fields(key), " ")
	}
	if a, ok := agencies[key]; ok {
		return a, true
	}
	for _, suffix := range []string{" photo", " photos", " pictures", " images", " pool", " tv", " video"} {
		if k, ok := strings.CutSuffix(key, suffix); ok {
			if a, ok := agencies[k]; ok {
				return a, true
			}
		}
	}
	// The last one to three words: "Syria REUTERS".
	for i, n := len(key), 0; i > 0 && n < 3; n++ {
		i = strings.LastIndexByte(key[:i], ' ')
		if i < 0 {
			break
		}
		if a, ok := agencies[key[i+1:]]; ok && a.rank >= rankPhotoAgency {
			return a, true
		}
	}
	return agency{}, false
}

// Words that make an unknown credit part an outlet rather than a person.
var outletWords = map[string]bool{"news": true, "agency": true, "media": true, "center": true, "centre": true,
	"network": true, "press": true, "photo": true, "photos": true, "images": true, "pictures": true, "times": true,
	"post": true, "channel": true, "tv": true, "foundation": true, "office": true, "ministry": true, "presidency": true,
	"facebook": true, "twitter": true, "telegram": true, "website": true, "page": true, "council": true, "committee": true,
	"defense": true, "defence": true, "helmets": true, "civil": true, "crescent": true, "handout": true,
	"pix": true, "pics": true, "photography": true, "studio": true, "studios": true, "group": true,
	"organisation": true, "organization": true, "commission": true, "coalition": true}

// guessAgency takes an unknown credit part as an outlet when it is an
// acronym (ANHA, SNN), a brand (TRTWorld) or has an outlet word (Aleppo
// Media Center).
func guessAgency(part string) (agency, bool) {
	words := strings.Fields(part)
	if len(words) == 1 && (utf8.RuneCountInString(part) <= 6 && strings.ToUpper(part) == part || brandLike(part)) {
		return agency{part, rankGuess}, true
	}
	for _, w := range words {
		var buf [32]byte
		if outletWords[string(appendLower(buf[:0], w))] {
			return agency{part, rankGuess}, true
		}
	}
	return agency{}, false
}

var nameParticles = map[string]bool{"al": true, "el": true, "bin": true, "ibn": true, "bint": true, "de": true, "da": true,
	"di": true, "du": true, "van": true, "von": true, "der": true, "la": true, "le": true, "abu": true, "abd": true, "y": true}

// personName reports whether a credit part reads as a person's name: one to
// six words of letters, the first capitalised ("Omar haj kadour" is a
// name typed in a hurry).
func personName(s string) bool {
	words := strings.Fields(s)
	if len(words) == 0 || len(words) > 6 {
		return false
	}
	if first, _ := utf8.DecodeRuneInString(words[0]); !unicode.IsUpper(first) {
		return false
	}
	for _, w := range words {
		var buf [32]byte
		if lw := appendLower(buf[:0], w); outletWords[string(lw)] || organisationWords[string(lw)] {
			return false // "Syrian Civil Defense White Helmets"
		}
		for _, r := range w {
			if !(unicode.IsLetter(r) || unicode.IsMark(r) || r == '-' || r == '.' || isApostrophe(r)) {
				return false
			}
		}
	}
	return true
}

// tidyName writes a name's all-capitals words ("ZEIN AL-RIFAI", "George
// OURFALIAN") and, in a name typed all in lower case but its first letter,
// its lower-case words in title case; particles (al-, bin, de) that a
// writer kept in lower case stay so.
func tidyName(s string) string {
	if tidy(s) {
		return s
	}
	words := strings.Fields(s)
	lower := true
	for _, w := range words[1:] {
		if strings.ToLower(w) != w {
			lower = false
		}
	}
	for i, w := range words {
		switch {
		case utf8.RuneCountInString(w) > 1 && strings.ToUpper(w) == w && strings.ToLower(w) != w:
			words[i] = titleCase(w)
		case lower && len(words) > 1 && !nameParticles[strings.SplitN(w, "-", 2)[0]]:
			words[i] = titleCase(w)
		}
	}
	return strings.Join(words, " ")
}

// tidy reports whether a name needs no tidying: single spaces, and no
// word but the first in capitals or lower case alone ("Bassam Khabieh",
// "Mohammed al-Khatieb" with a particle).
func tidy(s string) bool {
	if strings.Contains(s, "  ") || strings.TrimSpace(s) != s {
		return false
	}
	lower := true
	for i, w := range strings.Split(s, " ") {
		upper := strings.ToUpper(w) == w && strings.ToLower(w) != w
		if upper && utf8.RuneCountInString(w) > 1 {
			return false
		}
		if i > 0 && strings.ToLower(w) != w {
			lower = false
		}
	}
	return !lower || !strings.Contains(s, " ")
}

func titleCase(w string) string {
	b := []rune(strings.ToLower(w))
	for i := range b {
		if i == 0 || b[i-1] == '-' || b[i-1] == '.' {
			b[i] = unicode.ToUpper(b[i])
		}
	}
	return string(b)
}

// notices are editors' notes that agencies append around a credit.
var notices = []string{"TPX IMAGES OF THE DAY", "ATTENTION EDITORS", "EDITORIAL USE ONLY", "FOR EDITORIAL USE",
	"NO RESALES", "NO ARCHIVES", "THIS IMAGE HAS BEEN SUPPLIED", "THIS PICTURE WAS PROVIDED", "MANDATORY CREDIT",
	"NO SALES", "NO MARKETING", "SEARCH \"", "SEARCH “", "RESTRICTED TO EDITORIAL USE"}

// blankNotices returns text with the editors' notes replaced by spaces,
// byte for byte, so that offsets still hold.
func blankNotices(text string) string {
	var b []byte
	// Notices are in capitals: only a word that starts with two capital
	// letters is worth comparing with them.
	for i := 0; i+1 < len(text); i++ {
		if !isUpperByte(text[i]) || !isUpperByte(text[i+1]) || i > 0 && isLetterByte(text[i-1]) {
			continue
		}
		for _, n := range notices {
			if strings.HasPrefix(text[i:], n) {
				end := noticeEnd(text, i)
				if b == nil {
					b = []byte(text)
				}
				for k := i; k < end; k++ {
					b[k] = ' '
				}
				i = end
				break
			}
		}
	}
	if b == nil {
		return text
	}
	return string(b)
}

func isUpperByte(c byte) bool { return c >= 'A' && c <= 'Z' }

// noticeEnd finds where a notice that starts at i ends: at the first word
// that is not all capitals, or at a word joined to a slash (a credit such
// as REUTERS/Name after the notice).
func noticeEnd(text string, i int) int {
	j := i
	for j < len(text) {
		r, size := utf8.DecodeRuneInString(text[j:])
		if unicode.IsLetter(r) {
			k := j
			for k < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[k:])
				if !unicode.IsLetter(r2) && !isApostrophe(r2) {
					break
				}
				k += s2
			}
			word := text[j:k]
			if strings.ToUpper(word) != word || k < len(text) && text[k] == '/' {
				return j
			}
			j = k
			continue
		}
		if r == '(' || r == ')' {
			return j
		}
		j += size
	}
	return j
}

// creditTail narrows a parenthesised credit, the group text[open:close+1],
// that is a whole sentence with the credit after its last dash ("(A man
// in al-Waer, April 24, 2017 - Orient photo)") to that last part, so that
// the sentence is read for its place and date; it returns c and the
// group's span for any other.
func creditTail(text string, c Credit, open, close int) (Credit, int, int) {
	group := text[open+1 : close]
	if len(strings.Fields(group)) <= 12 {
		return c, open, close + 1
	}
	k := max(strings.LastIndex(group, " - "), strings.LastIndex(group, " – "))
	if k < 0 {
		return c, open, close + 1
	}
	tail := strings.TrimLeft(group[k+1:], "-– ")
	if tc, ok := parseCredit(tail); ok {
		return tc, close - len(tail), close + 1
	}
	return c, open, close + 1
}

// findCredit finds the credit of a caption and returns it with its byte
// span; ok is false when the caption has none. It reads three kinds: the
// last parenthesised group that is a credit ("(Photo by Name/Agency)",
// "<AP Photo/Name>"), a credit inside the text ("Photo: Name/Reuters, March
// 3") and the end of the caption ("… 2016. REUTERS/Name", "Name / Reuters /
// May 9, 2014", "…in Idlib, Syria.Firstname Lastname"). A credit that
// names the photographer beats one that does not ("Qamishli (Syria), May 5
// (EFE) - … EFE/Name"); otherwise they rank in that order.
func findCredit(text string) (c Credit, start, end int, ok bool) {
	clean := blankNotices(text)
	if strings.ContainsAny(clean, "<>[]") {
		// Angle and square brackets hold credits as parentheses do; byte
		// for byte, so offsets hold.
		clean = strings.NewReplacer("<", "(", ">", ")", "[", "(", "]", ")").Replace(clean)
	}
	type found struct {
		c          Credit
		start, end int
	}
	var best found
	consider := func(f found) {
		if best.end == 0 || best.c.Photographer == "" && f.c.Photographer != "" {
			best = f
		}
	}
	// The last parenthesised group that reads as a credit.
	for close := len(clean); ; {
		j := strings.LastIndexByte(clean[:close], ')')
		if j < 0 {
			break
		}
		i := strings.LastIndexByte(clean[:j], '(')
		if i < 0 {
			break
		}
		if c, ok := parseCredit(clean[i+1 : j]); ok {
			c, s, e := creditTail(clean, c, i, j)
			consider(found{c, s, e})
			break
		}
		close = i
	}
	if best.end > 0 && best.c.Photographer != "" {
		return best.c, best.start, best.end, true
	}
	// A credit inside the text: "Photo: Hosam Katan/Reuters, March 3".
	if c, i, j, ok := inlineCredit(clean); ok {
		consider(found{c, i, j})
	}
	if c, i, j, ok := tailCredit(clean); ok {
		consider(found{c, i, j})
	}
	// "… on August 1, 2013. REUTERS/SANA/Handout via Reuters (SYRIA –
	// Tags: …)": a wire's credit in capitals before the agency's notes,
	// or before the caption ("HASAKA, Syria. REUTERS/Rodi Said Christian
	// fighters …").
	if best.c.Photographer == "" {
		if c, i, j, ok := wireCredit(clean); ok {
			consider(found{c, i, j})
		}
	}
	if best.end == 0 {
		// No credit of its own: "a handout picture released by SANA
		// shows …" names who gave it out.
		if c, i, j, ok := providerCredit(clean); ok {
			consider(found{c, i, j})
		}
	}
	if best.end == 0 {
		return Credit{}, 0, 0, false
	}
	return best.c, best.start, best.end, true
}

// providerLeads begin the name of whoever gave out a handout, in running
// text: "a photo released by SANA", "provided by the official news agency".
var providerLeads = []string{"released by ", "provided by ", "distributed by ", "issued by ", "published by ", "posted by ", "courtesy of "}

// providerEnds end a provider's name: the verb or the place and date that
// follow it ("released by SANA shows …", "provided by SANA on May 2").
var providerEnds = []string{" show", " on ", " in ", " at ", " during ", " after ", " of the "}

// providerCredit finds a known agency named after one of providerLeads, in
// the clause that follows it or the one after a comma ("the Syrian
// official news agency, SANA, shows"), and returns it with the agency's
// span. Only agencies the table knows are read: the words after "provided
// by" are as often a person ("provided by a local activist").
func providerCredit(text string) (c Credit, start, end int, ok bool) {
	for _, lead := range providerLeads {
		for from := 0; ; {
			i := strings.Index(text[from:], lead)
			if i < 0 {
				break
			}
			from += i + len(lead)
			for j, part := from, 0; part < 2 && j < len(text); part++ {
				k := inlineEnd(text, j)
				clause := text[j:k]
				for _, e := range providerEnds {
					if x := strings.Index(clause, e); x >= 0 {
						clause = clause[:x]
					}
				}
				if a, s, e, found := agencyIn(clause); found {
					return Credit{Agency: a.name}, j + s, j + e, true
				}
				if k >= len(text) || text[k] != ',' {
					break
				}
				j = k + 1
			}
		}
	}
	return Credit{}, 0, 0, false
}

// agencyIn finds the longest run of one to four words of s that spells a
// known agency, and its byte span in s.
func agencyIn(s string) (a agency, start, end int, ok bool) {
	type word struct{ start, end int }
	var words []word
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '(' || s[i] == ')') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '(' && s[j] != ')' {
			j++
		}
		if j > i {
			words = append(words, word{i, j})
		}
		i = j
	}
	best := 0
	for x := range words {
		for n := min(4, len(words)-x); n > best; n-- {
			w0, w1 := words[x], words[x+n-1]
			if found, hit := agencies[lowerASCII(s[w0.start:w1.end])]; hit {
				a, start, end, ok, best = found, w0.start, w1.end, true, n
				break
			}
		}
	}
	return a, start, end, ok
}

// trailingDate matches a date after a trailing credit: "/ May 9, 2014".
var trailingDate = regexp.MustCompile(`\s*/\s*(?:[A-Za-z]{3,9}\.?,?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}\s+[A-Za-z]{3,9}\.?,?\s+\d{4}|\d{1,2}[./]\d{1,2}[./]\d{4})\s*$`)

// tailCredit reads a credit at the end of the caption: the run of
// capitalised words and slashes before the end that holds a slash or an
// agency, or a name glued to the last sentence ("Syria.Firstname
// Lastname").
func tailCredit(clean string) (c Credit, start, end int, ok bool) {
	tail := strings.TrimRight(clean, " \t\n.")
	// "… of the same name. SANA via AP)": a credit whose opening
	// parenthesis was lost when the caption was copied.
	if strings.HasSuffix(tail, ")") && strings.Count(tail, "(") < strings.Count(tail, ")") {
		tail = strings.TrimRight(tail[:len(tail)-1], " \t\n.")
	}
	if n := len(tail); n > 0 && tail[n-1] >= '0' && tail[n-1] <= '9' && strings.Contains(tail, "/") {
		if loc := trailingDate.FindStringIndex(tail); loc != nil {
			tail = strings.TrimRight(tail[:loc[0]], " \t\n.")
		}
	}
	// "AP Photo/Hussein Malla, File": an archive photo's marker, part of
	// the credit's span but not of its names.
	end = len(tail)
	if n := len(tail); n > 6 && strings.EqualFold(tail[n-6:], ", file") {
		tail = tail[:n-6]
	}
	slash := strings.LastIndexAny(tail, "/")
	last := tailStart(tail, len(tail))
	if slash >= 0 {
		if s := tailStart(tail, slash); tail[slash+1:] != "" && !strings.ContainsAny(tail[slash:], ".,;:!?") {
			last = s
		}
	}
	// "© Syria Civil Defence": the sign begins the credit.
	if before := strings.TrimRight(tail[:last], " "); strings.HasSuffix(before, "©") {
		last = len(before) - len("©")
	}
	c, ok = parseCredit(tail[last:])
	if !ok && sentenceBefore(tail, last) {
		// "… in Douma, Syria, 2016. SARC": a known agency alone after
		// the last sentence.
		if a, found := agencies[lowerASCII(strings.TrimSpace(tail[last:]))]; found {
			c, ok = Credit{Agency: a.name}, true
		}
	}
	if !ok && last >= 2 && tail[last-1] == '.' && unicode.IsLower(rune(tail[last-2])) {
		// A name glued to the caption's last sentence: two to four
		// capitalised words after a full stop with no space.
		if words := strings.Fields(tail[last:]); len(words) >= 2 && len(words) <= 4 && personName(tail[last:]) {
			c, ok = Credit{Photographer: tidyName(tail[last:])}, true
		}
	}
	if !ok || c.Photographer == "" && c.Agency == "" {
		return Credit{}, 0, 0, false
	}
	return c, last, end, true
}

// sentenceBefore reports whether a sentence ends right before i: a full
// stop, then spaces.
func sentenceBefore(s string, i int) bool {
	before := strings.TrimRight(s[:i], " ")
	return len(before) < i && strings.HasSuffix(before, ".")
}

// inlineLeads begin a credit in running text; they are matched with their
// capitals so that "a photo by the activists" is not taken for one.
var inlineLeads = []string{"Photo:", "Photo by ", "Photos by ", "Photograph:", "Photograph by ", "Picture:",
	"Picture by ", "Credit:", "Photo credit:", "PHOTO:", "Image:", "Photo for ", "Photographer:", "Photographer :",
	"Source:", "Source :", "Copyright photo:", "Copyright:"}

// inlineCredit finds a credit that starts with one of inlineLeads and ends
// at the next comma, semicolon or full stop.
func inlineCredit(text string) (c Credit, start, end int, ok bool) {
	for _, lead := range inlineLeads {
		i := strings.Index(text, lead)
		if i < 0 || i > 0 && isLetterByte(text[i-1]) {
			continue
		}
		j := inlineEnd(text, i+len(lead))
		if strings.HasPrefix(lead, "Photographer") && j < len(text) && text[j] == ',' {
			j = inlineEnd(text, j+1) // "Photographer : SURNAME, Given"
		}
		if c, ok := parseCredit(text[i:j]); ok && (c.Photographer != "" || c.Agency != "") {
			return c, i, j, true
		}
	}
	return Credit{}, 0, 0, false
}

// wireLeads are how wires begin a credit in capitals.
var wireLeads = []string{"REUTERS/", "AFP/", "AP/", "EPA/", "EPA-EFE/", "XINHUA/", "AFP PHOTO/", "AP PHOTO/"}

// wireCredit finds a wire's credit in capitals inside the text, such as
// "REUTERS/SANA/Handout via Reuters" before a parenthesised note; it ends
// at a parenthesis, a sentence's end or the first word in lower case
// other than "via".
func wireCredit(text string) (c Credit, start, end int, ok bool) {
	for _, lead := range wireLeads {
		i := strings.Index(text, lead)
		if i < 0 || i > 0 && isLetterByte(text[i-1]) {
			continue
		}
		j := i + len(lead)
		words, lastWord := 0, j
		for j < len(text) {
			k := j
			for k < len(text) && text[k] != ' ' && text[k] != '(' {
				k++
			}
			word := text[j:k]
			if word != "" && word != "via" && (isLowerByte(word[0]) || strings.HasSuffix(word, ".")) {
				if strings.HasSuffix(word, ".") && !isLowerByte(word[0]) {
					j = k - 1
				} else if words >= 2 && word != "and" {
					// "REUTERS/Rodi Said Christian fighters man …": the
					// caption goes on after the credit, and its first word
					// is no part of the name.
					j = lastWord - 1
				}
				break
			}
			if word != "" {
				words, lastWord = words+1, j
			}
			j = k
			if j < len(text) && text[j] == '(' {
				break
			}
			j++
		}
		j = min(j, len(text))
		if c, ok := parseCredit(text[i:j]); ok && (c.Photographer != "" || c.Agency != "") {
			return c, i, j, true
		}
	}
	return Credit{}, 0, 0, false
}

func isLowerByte(c byte) bool { return c >= 'a' && c <= 'z' }

// inlineEnd returns where an inline credit that continues at j ends: at
// the next comma, semicolon, parenthesis, or full stop that ends a
// sentence.
func inlineEnd(text string, j int) int {
	for j < len(text) && !strings.ContainsRune(",;()", rune(text[j])) && !(text[j] == '.' && (j+1 == len(text) || text[j+1] == ' ')) {
		j++
	}
	return j
}

// tailStart walks back from i over capitalised words, particles, spaces,
// slashes and hyphens, to the start of a trailing credit.
func tailStart(s string, i int) int {
	start := i
	for j := i; j > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		if r == '/' || r == ' ' || r == '-' || r == '.' && j >= 2 && s[j-2] != ' ' && unicode.IsUpper(rune(s[j-2])) && (j < 3 || s[j-3] == ' ') {
			j -= size
			continue
		}
		// Words may hold digits (a picture number, UN012345), but a
		// number (a year) ends the credit.
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !isApostrophe(r) {
			break
		}
		k := j
		for k > 0 {
			r2, s2 := utf8.DecodeLastRuneInString(s[:k])
			if !unicode.IsLetter(r2) && !unicode.IsDigit(r2) && !isApostrophe(r2) && r2 != '-' {
				break
			}
			k -= s2
		}
		word := strings.Trim(s[k:j], "-")
		first, _ := utf8.DecodeRuneInString(word)
		if !unicode.IsUpper(first) && !nameParticles[strings.ToLower(strings.SplitN(word, "-", 2)[0])] && strings.ToLower(word) != "via" {
			break
		}
		start, j = k, k
	}
	for start < i && (s[start] == ' ' || s[start] == '/' || s[start] == '-') {
		start++
	}
	return start
}
