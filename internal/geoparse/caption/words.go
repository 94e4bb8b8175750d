package caption

// The words the caption reader knows; lexicon.go gathers them into flags.

// whereCues govern a name the photo was taken in or near.
var whereCues = map[string]bool{"in": true, "at": true, "near": true, "inside": true, "outside": true,
	"around": true, "across": true, "within": true, "throughout": true, "on": true, "over": true, "along": true,
	"beside": true, "behind": true, "nearby": true, "outskirts": true, "amid": true, "through": true,
	// "Fighters enter the village of Ghandoura", "refugees enter Jordan":
	// the photo is where they arrive.
	"enter": true, "enters": true, "entering": true, "entered": true}

var originCues = map[string]bool{"from": true, "fled": true, "fleeing": true, "flee": true, "flees": true,
	"escaped": true, "escaping": true, "escape": true, "left": true, "leaving": true, "evacuated": true,
	"evacuating": true, "deported": true, "expelled": true}

// cameraVerbs before "from" say where the photographer stood.
var cameraVerbs = map[string]bool{"seen": true, "viewed": true, "photographed": true, "taken": true,
	"pictured": true, "shot": true, "filmed": true, "watched": true, "looking": true}

// Words before "from" that say a thing was seen there: "smoke rises from".
var risesVerbs = map[string]bool{"rises": true, "rise": true, "rising": true, "rose": true, "billows": true,
	"billow": true, "billowing": true, "billowed": true, "emerges": true, "emerging": true}

var targetCues = map[string]bool{"to": true, "towards": true, "toward": true, "into": true, "heading": true,
	"headed": true, "bound": true, "shelling": true, "shelled": true, "bombing": true, "bombed": true,
	"bombardment": true, "attack": true, "attacks": true, "attacked": true, "attacking": true, "strike": true,
	"strikes": true, "airstrike": true, "airstrikes": true, "offensive": true, "advance": true,
	"advancing": true, "assault": true, "stormed": true, "storming": true, "capture": true, "captured": true,
	"seize": true, "seized": true, "recapture": true, "recaptured": true, "retake": true, "retook": true,
	"besieging": true, "targeting": true, "targeted": true, "reach": true, "reached": true, "return": true, "returned": true, "returning": true, "march": true, "marching": true}

// Verbs of a strike landing: the place after them is where it landed.
var landedVerbs = map[string]bool{"hit": true, "hits": true, "struck": true, "pounded": true, "pounding": true}

// designators name what a place is; the map gives the canonical word.
var designators = map[string]string{
	"city": "city", "town": "town", "towns": "town", "cities": "city", "village": "village", "villages": "village", "hamlet": "village",
	"neighbourhood": "neighbourhood", "neighborhood": "neighbourhood", "neighbourhoods": "neighbourhood",
	"neighborhoods": "neighbourhood", "quarter": "neighbourhood", "district": "district",
	"districts": "district", "suburb": "suburbs", "suburbs": "suburbs", "province": "province",
	"provinces": "province", "governorate": "governorate", "countryside": "countryside", "region": "region",
	"area": "area", "areas": "area", "outskirts": "outskirts", "edge": "outskirts", "camp": "camp", "crossing": "crossing",
	"capital": "capital", "north": "north", "south": "south", "east": "east", "west": "west",
	"northeast": "north", "northwest": "north", "southeast": "south", "southwest": "south",
	"enclave": "region", "pocket": "region", "subdistrict": "subdistrict", "municipality": "town",
	"border": "border", "frontline": "frontline", "front": "frontline", "countrysides": "countryside",
	"old": "neighbourhood", "port": "city", "center": "centre", "centre": "centre", "heart": "centre",
	"river": "river", "lake": "lake", "sea": "sea", "mountains": "mountains", "valley": "valley", "desert": "desert",
}

// Words passed over when looking back from a name for its cue.
// (lexicon.ControlWords are passed over too: "the rebel-held town of".)
var passOver = map[string]bool{"the": true, "a": true, "an": true, "of": true, "war": true, "ravaged": true,
	"torn": true, "battered": true, "embattled": true, "northern": true, "southern": true, "eastern": true,
	"western": true, "central": true, "northeastern": true, "northwestern": true, "southeastern": true,
	"southwestern": true, "nearby": true, "restive": true, "damaged": true, "destroyed": true, "rural": true,
	"jihadist": true, "militant": true, "regime": true, "army": true, "kurdish": true, "syrian": true,
	"flashpoint": true, "strategic": true, "key": true, "small": true, "ancient": true, "historic": true,
	"devastated": true, "frontline": true, "contested": true, "heavily": true, "largely": true,
	"mainly": true, "predominantly": true, "christian": true, "sunni": true, "alawite": true, "shiite": true,
	"druze": true, "deserted": true, "isolated": true, "hard": true, "hit": true, "battle": true,
	"mostly": true, "once": true, "former": true, "same": true, "insurgent": true, "islamist": true,
	"state": true, "loyalist": true, "loyal": true, "pro": true, "its": true, "their": true, "his": true,
	"her": true, "nearby's": true, "refugee": true, "displaced": true, "makeshift": true, "informal": true,
	"old": true, "new": true, "turkish": true, "lebanese": true, "jordanian": true, "iraqi": true,
	"rebels": true, "fighters": true, "regime's": true, "is": true, "isis": true, "held'": true,
	"country's": true, "town's": true, "city's": true, "outer": true, "far": true, "just": true, "miles": true,
	"km": true, "kilometres": true, "kilometers": true, "frontier": true, "coastal": true, "remote": true, "tiny": true,
	"impoverished": true, "poor": true, "mountainous": true, "rural's": true,
	// "evacuated from the two besieged towns of"
	"besieged": true, "encircled": true, "two": true, "both": true}

// Capitalised adjectives passed over too: "in the Northern countryside";
// and every one of lexicon.Nationalities ("in the Syrian capital
// Damascus").
var passOverUpper = map[string]bool{"northern": true, "southern": true, "eastern": true, "western": true, "central": true}

// Nouns of an appositive that say a name is a person's: "Saad, a teen
// from Raqqa".
var personNouns = map[string]bool{"boy": true, "girl": true, "man": true, "woman": true, "child": true, "teen": true,
	"teenager": true, "mother": true, "father": true, "grandmother": true, "grandfather": true, "widow": true,
	"student": true, "farmer": true, "nurse": true, "doctor": true, "teacher": true, "worker": true, "fighter": true,
	"volunteer": true, "survivor": true, "resident": true, "baker": true, "driver": true, "shopkeeper": true,
	"mechanic": true, "soldier": true, "commander": true, "member": true, "activist": true, "journalist": true,
	"photographer": true, "rescuer": true, "paramedic": true, "medic": true, "barber": true, "tailor": true,
	"vendor": true, "seller": true, "refugee": true, "father-of": true, "mother-of": true, "youth": true,
	"toddler": true, "baby": true, "infant": true, "son": true, "daughter": true, "wife": true, "husband": true}

// Kin after "with" that say a name is a person's: "Basi with his son".
var kinNouns = map[string]bool{"son": true, "sons": true, "daughter": true, "daughters": true, "children": true,
	"child": true, "wife": true, "husband": true, "mother": true, "father": true, "family": true, "baby": true,
	"brother": true, "brothers": true, "sister": true, "sisters": true, "grandson": true, "granddaughter": true,
	"grandchildren": true, "friends": true, "friend": true}

// Words before a name that make it a person's.
var personBefore = map[string]bool{"president": true, "mr": true, "mrs": true, "ms": true, "dr": true,
	"leader": true, "commander": true, "general": true, "gen": true, "minister": true, "photographer": true,
	"activist": true, "by": true, "named": true, "called": true, "spokesman": true, "spokeswoman": true,
	"envoy": true, "imam": true, "father": true, "mother": true, "son": true, "daughter": true,
	"wife": true, "husband": true, "brother": true, "sister": true, "cousin": true, "uncle": true,
	"aunt": true, "friend": true, "director": true, "secretary": true, "chief": true, "king": true,
	"emir": true, "colonel": true, "col": true, "lieutenant": true, "sergeant": true, "captain": true,
	"pope": true, "patriarch": true, "bishop": true, "father's": true, "said": true, "says": true,
	"told": true, "according": true, "resident": true, "volunteer": true, "doctor": true, "nurse": true,
	"teacher": true, "boy": true, "girl": true, "man": true, "woman": true, "baby": true, "child": true,
	"couple": true, "sheikh's": true, "mufti": true, "prime": true, "foreign": true, "defence": true, "defense": true}

// Words in a name that make it an organisation's.
var organisationWords = map[string]bool{"army": true, "forces": true, "force": true, "front": true,
	"brigade": true, "brigades": true, "battalion": true, "battalions": true, "council": true,
	"observatory": true, "organisation": true, "organization": true, "committee": true, "party": true,
	"movement": true, "crescent": true, "cross": true, "helmets": true, "defence": true, "defense": true,
	"ministry": true, "agency": true, "news": true, "network": true, "media": true, "state": true,
	"nations": true, "union": true, "coalition": true, "units": true, "group": true, "jaish": true,
	"jabhat": true, "ahrar": true, "harakat": true, "liwa": true, "katibat": true, "hezbollah": true,
	"hizbollah": true, "nusra": true, "daesh": true, "isis": true, "isil": true, "ypg": true, "ypj": true,
	"sdf": true, "fsa": true, "guard": true, "guards": true, "police": true, "government": true,
	"regime": true, "division": true, "corps": true, "legion": true, "tahrir": true,
	"hayat": true, "hayat'": true, "fatah": true, "fateh": true, "islam": true, "mujahideen": true,
	"foundation": true, "institute": true, "program": true, "programme": true,
	"fund": true, "bank": true, "company": true, "club": true, "team": true,
	"rights": true, "watch": true, "amnesty": true, "unicef": true, "unhcr": true, "reuters": true,
	"afp": true, "press": true, "channel": true, "tv": true, "television": true, "radio": true,
	"association": true, "society": true, "administration": true, "authority": true, "command": true,
	"operations": true, "operation": true, "shield": true}

// unitWords after a lower-case name make it an armed group's: "the
// al-Sultan Murad brigade", "the Hamza division".
var unitWords = map[string]bool{"brigade": true, "brigades": true, "battalion": true, "battalions": true,
	"division": true, "militia": true, "militias": true, "faction": true, "factions": true, "regiment": true}

// Words in a name that make it an event's.
var eventWords = map[string]bool{"eid": true, "ramadan": true, "christmas": true, "easter": true,
	"ashura": true, "nowruz": true, "newroz": true, "festival": true, "marathon": true, "day": true,
	"games": true, "olympics": true, "cup": true, "league": true, "conference": true, "summit": true,
	"talks": true, "revolution": true, "war": true, "fitr": true, "adha": true, "mawlid": true,
	"year": true, "holiday": true, "friday": true, "saturday": true, "sunday": true,
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "prayers": true, "prayer": true,
	"mass": true, "championship": true, "exhibition": true, "fair": true, "week": true}

// leadingWords are capitalised at the start of a sentence but never begin
// a name.
var leadingWords = map[string]bool{"a": true, "an": true, "the": true, "this": true, "these": true,
	"those": true, "in": true, "at": true, "on": true, "as": true, "after": true, "before": true,
	"during": true, "while": true, "when": true, "some": true, "many": true, "his": true, "her": true,
	"their": true, "its": true, "our": true, "one": true, "two": true, "three": true, "several": true,
	"other": true, "another": true, "each": true, "every": true, "both": true, "with": true, "from": true,
	"for": true, "by": true, "to": true, "near": true, "inside": true, "outside": true, "since": true,
	// The people a caption opens with, capitalised only as its first
	// word: "Residents of Wadi Barada ride a bus", "Members of the SDF".
	"residents": true, "members": true, "people": true, "civilians": true, "children": true, "families": true,
	"fighters": true, "rebels": true, "soldiers": true, "refugees": true, "women": true, "men": true,
	"supporters": true, "relatives": true, "survivors": true, "victims": true, "volunteers": true,
	"workers": true, "protesters": true, "mourners": true, "students": true, "villagers": true, "inhabitants": true}

// connectors join the capitalised words of one name: Ras al-Ain, Jisr
// ash-Shughur, Old City of Aleppo, Bab al-Hawa.
var connectors = map[string]bool{"al": true, "el": true, "ad": true, "ar": true, "as": true, "ash": true,
	"az": true, "at": true, "an": true, "ath": true, "ed": true, "es": true, "ez": true, "er": true,
	"et": true, "en": true, "ul": true, "bin": true, "ibn": true, "bani": true, "of": true, "de": true,
	"la": true, "le": true, "du": true, "des": true, "the": true, "for": true, "wa": true}

var quoteOpen = map[string]bool{"“": true, "\"": true, "«": true, "‘": true, "'": true, "„": true}

var quoteClose = map[string]bool{"”": true, "\"": true, "»": true, "’": true, "'": true, "“": true}
