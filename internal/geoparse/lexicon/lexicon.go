// Package lexicon holds the words about countries and sides that more
// than one part of syriamap reads — the caption reader to tell a country
// from a place, the geocoder to know which country a caption puts a photo
// in, the pages to name a place's country — so that they share one list.
package lexicon

// Countries maps the countries captions of the Syrian war name, in lower
// case, to their ISO 3166-1 alpha-2 code where the gazetteer covers them
// (Syria and its neighbours), and to "" where it does not.
var Countries = map[string]string{"syria": "SY", "turkey": "TR", "lebanon": "LB", "jordan": "JO", "iraq": "IQ",
	"kurdistan": "IQ", "iraqi kurdistan": "IQ", "israel": "IL",
	"iran": "", "russia": "", "egypt": "", "greece": "", "germany": "", "europe": "", "saudi arabia": "", "qatar": "",
	"kuwait": "", "united states": "", "us": "", "u.s": "", "france": "", "britain": "", "united kingdom": "", "uk": "",
	"palestine": "", "cyprus": "", "hungary": "", "serbia": "", "macedonia": "", "austria": "", "sweden": "", "italy": "",
	"the netherlands": "", "armenia": "", "azerbaijan": "", "libya": "", "yemen": "", "afghanistan": "",
	"bulgaria": "", "croatia": "", "slovenia": "", "spain": "", "malta": "", "switzerland": "", "belgium": "", "denmark": "",
	"norway": "", "finland": "", "netherlands": "", "canada": "", "australia": "", "sicily": "", "tunisia": "", "algeria": "",
	"morocco": "", "sudan": "", "georgia": "", "romania": "", "poland": "", "czech republic": "", "slovakia": "", "united arab emirates": ""}

// Nationalities maps the demonyms captions use before nouns ("a Syrian
// army soldier", "the Turkish town of Akcakale"), in lower case, to the
// code of the country they name where the gazetteer covers it, and to ""
// for the others, peoples and faiths included (Kurdish, Druze).
var Nationalities = map[string]string{"syrian": "SY", "syrians": "SY", "turkish": "TR", "lebanese": "LB",
	"jordanian": "JO", "iraqi": "IQ", "israeli": "IL",
	"kurdish": "", "kurd": "", "kurds": "", "russian": "", "iranian": "", "palestinian": "", "american": "", "british": "",
	"french": "", "german": "", "european": "", "arab": "", "armenian": "", "assyrian": "", "yazidi": "", "turkmen": "",
	"circassian": "", "alawite": "", "sunni": "", "shiite": "", "shi'ite": "", "shi’ite": "", "shia": "", "druze": "", "christian": "", "muslim": "",
	"islamic": "", "syriac": "", "bedouin": "", "greek": "", "macedonian": "", "serbian": "", "hungarian": "",
	"austrian": "", "italian": "", "egyptian": "", "saudi": "", "qatari": "", "emirati": "", "afghan": "", "european's": "",
	"bulgarian": "", "sicilian": "", "spanish": "", "croatian": "", "slovenian": "", "maltese": "", "swiss": "", "swedish": "",
	"belgian": "", "dutch": "", "danish": "", "norwegian": "", "kuwaiti": "", "cypriot": "", "libyan": "", "tunisian": ""}

// Foreign reports whether a demonym in Nationalities names a country the
// gazetteer does not cover ("Greek", "Bulgarian"), as opposed to a
// people, a faith or a country it does.
func Foreign(demonym string) bool {
	code, ok := Nationalities[demonym]
	return ok && code == "" && !peoples[demonym]
}

// peoples are the demonyms in Nationalities of peoples and faiths, and of
// countries whose forces captions name inside Syria (Russian, American,
// Iranian): none says a place is abroad.
var peoples = map[string]bool{"kurdish": true, "kurd": true, "kurds": true, "russian": true, "iranian": true, "palestinian": true,
	"american": true, "british": true, "arab": true, "armenian": true, "assyrian": true, "yazidi": true,
	"turkmen": true, "circassian": true, "alawite": true, "sunni": true, "shiite": true, "shi'ite": true, "shi’ite": true,
	"shia": true, "druze": true, "christian": true, "muslim": true, "islamic": true, "syriac": true, "bedouin": true,
	"european": true, "european's": true, "saudi": true, "qatari": true, "emirati": true, "afghan": true}

// CountryNames names the countries the gazetteer covers, by code.
var CountryNames = map[string]string{"SY": "Syria", "TR": "Turkey", "LB": "Lebanon", "JO": "Jordan", "IQ": "Iraq", "IL": "Israel"}

// ControlWords say who holds a place, between a cue and its name: "in the
// rebel-held town of", "the government-controlled city", "the besieged".
var ControlWords = map[string]bool{"rebel": true, "held": true, "controlled": true, "government": true,
	"besieged": true, "opposition": true}

// placesAbroad are cities and provinces of other countries that captions
// give as where a photo was taken and that the gazetteer lacks (it holds
// Syria and the towns just across its borders, not the provinces), in
// English and in Arabic, with their country's code as Countries has it. Such a city says the photo is
// abroad, and is never a Syrian village spelled alike: "the suburbs of
// Ankara" are not Anqarah in Hasakah, Cairo is not Qahera in Hama.
var placesAbroad = map[string][]string{
	"TR": {"ankara", "istanbul", "izmir", "bodrum", "konya", "kahramanmaras", "malatya", "ayvalik", "didim", "cesme", "edirne",
		"هاتاي", "أنقرة", "انقره", "إسطنبول", "اسطنبول", "استانبول", "إزمير", "ازمير", "بودروم", "قونية",
		"diyarbakir", "ديار بكر", "ديار بكير", "دياربكر", "سانليورفا"},
	"IQ": {"baghdad", "kirkuk", "basra", "ramadi", "fallujah", "falluja", "sulaimaniyah", "sulaymaniyah", "najaf", "karbala", "tikrit",
		"بغداد", "كركوك", "البصرة", "الرمادي", "الفلوجة", "السليمانية", "النجف", "كربلاء", "تكريت"},
	"": {"berlin", "munich", "hamburg", "cologne", "dortmund", "vienna", "budapest", "athens", "lesbos", "lesvos", "kos", "idomeni",
		"gevgelija", "calais", "paris", "london", "brussels", "geneva", "lausanne", "montreux", "rome", "moscow", "sochi",
		"tehran", "cairo", "riyadh", "doha", "dubai", "abu dhabi", "kuwait city", "washington", "new york", "astana", "stockholm",
		"برلين", "ميونخ", "هامبورغ", "فيينا", "بودابست", "أثينا", "ليسبوس", "جنيف", "لوزان", "مونترو", "باريس", "لندن", "بروكسل",
		"روما", "موسكو", "سوتشي", "طهران", "القاهرة", "الرياض", "الدوحة", "دبي", "واشنطن", "نيويورك", "أستانا", "ستوكهولم"},
}

// PlacesAbroad maps the names in placesAbroad — English in lower case,
// Arabic folded by FoldArabic — to their country's code.
var PlacesAbroad = func() map[string]string {
	m := map[string]string{}
	for code, names := range placesAbroad {
		for _, n := range names {
			m[FoldArabic(n)] = code
		}
	}
	return m
}()
