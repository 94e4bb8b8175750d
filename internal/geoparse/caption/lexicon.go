package caption

import "github.com/syriamap/syriamap/internal/geoparse/lexicon"

// lexFlag marks what a word can do in a caption. Each word token carries
// its flags, looked up once when the caption is split into tokens, so
// that the name and cue rules test bits rather than maps.
type lexFlag uint32

const (
	lexWhere         lexFlag = 1 << iota // in, at, near: a locative cue
	lexOrigin                            // from, fled
	lexTarget                            // to, shelling
	lexCamera                            // seen, photographed: "seen from"
	lexPassOver                          // the, rebel-held: passed over looking for a cue
	lexPassOverUpper                     // Syrian, Kurdish: passed over though capitalised
	lexPerson                            // President, by: a person's name follows
	lexOrganisation                      // Army, Front: a name with it is an organisation's
	lexEvent                             // Eid, Marathon: a name with it is an event's
	lexConnector                         // al, of: joins the words of one name
	lexLeading                           // A, The: never begins a name
	lexDesignator                        // town, province: says what a place is
	lexRises                             // rises, billows: "smoke rises from"
)

var wordFlags = func() map[string]lexFlag {
	m := map[string]lexFlag{}
	add := func(f lexFlag, words map[string]bool) {
		for w, ok := range words {
			if ok {
				m[w] |= f
			}
		}
	}
	add(lexWhere, whereCues)
	add(lexOrigin, originCues)
	add(lexTarget, targetCues)
	add(lexCamera, cameraVerbs)
	add(lexPassOver, passOver)
	add(lexPassOverUpper, passOverUpper)
	for w := range lexicon.Nationalities {
		m[w] |= lexPassOverUpper
	}
	add(lexPassOver, lexicon.ControlWords)
	add(lexRises, risesVerbs)
	add(lexPerson, personBefore)
	add(lexOrganisation, organisationWords)
	add(lexEvent, eventWords)
	add(lexConnector, connectors)
	add(lexLeading, leadingWords)
	for w := range designators {
		m[w] |= lexDesignator
	}
	return m
}()

// lexOf returns the flags of a lower-case word, reading "army's" as
// "army".
func lexOf(lower string) lexFlag {
	if f, ok := wordFlags[lower]; ok {
		return f
	}
	if w, ok := cutPossessive(lower); ok {
		return wordFlags[w]
	}
	return 0
}
