package views

// SecondLooks is the queue of second looks: the photos waiting for this
// editor's blind look (others' placements), the disagreements waiting for
// a third editor, and the archive's setting.
type SecondLooks struct {
	Page
	Flash string
	// TwoPerson says whether every placement waits for a second look;
	// SettingAction switches it.
	TwoPerson     bool
	SettingAction string
	CSRF          string
	// ToLook are the rounds this editor may answer; Mine counts those
	// waiting for someone else because this editor placed them.
	ToLook []LookItem
	Mine   int
	// ToDecide are the disagreements this editor may decide.
	ToDecide     []LookItem
	AgreementURL string
}

// LookItem is one photo in a queue: its caption and the page to open.
// It says nothing of anyone's answer.
type LookItem struct {
	Caption, URL string
}

// SecondLook is the blind page: the photo, its caption and its file's
// facts, a map with no pin but the file's own, and the form. Nothing of
// the first editor's answer, nor the geocoder's reading, is on it.
type SecondLook struct {
	Page
	Caption      string
	DateShown    string
	Photographer string
	Agency       string
	ImageURL     string
	File         *ImageFile
	Action, CSRF string
	SearchURL    string
	Map          ReviewMap
	QueueURL     string
	// Refusal says why this editor may not answer (they placed it, or the
	// round no longer waits); the form is then not shown.
	Refusal string
}

// Adjudication is the third editor's page: both answers, their notes and
// their editors' names on one map, and the decision.
type Adjudication struct {
	Page
	Caption                 string
	DateShown               string
	PhotoURL                string
	ImageURL                string
	A, B                    LookAnswerView
	Judgement               string
	Action, CSRF, SearchURL string
	Map                     ReviewMap
	QueueURL                string
	Refusal                 string
	Decided                 *LookAnswerView
}

// LookAnswerView is one editor's answer as the adjudication shows it.
type LookAnswerView struct {
	N             int // 1 or 2: the key and the pin's label
	Editor, Place string
	Lon, Lat      string // "" when unplaceable
	Note, When    string
}

// AgreementPage is how often the team's editors agree.
type AgreementPage struct {
	Page
	From, To       string
	Action, CSVURL string
	Team           AgreementRowView
	Pairs          []AgreementRowView
	Alpha          string // "" when it cannot be measured
	AlphaWhy       string // "cannot be read: …", or ""
	Raters         int
	ByKind, ByGov  []DisagreementView
}

// AgreementRowView is a pair's (or the team's) figures in words.
type AgreementRowView struct {
	Editors                                      string
	Looks                                        int
	SamePlace, Nested, WithinSize, Agreed, Kappa string
}

// DisagreementView is a kind of place or a governorate and how often its
// answers disagreed.
type DisagreementView struct {
	Name             string
	Looks, Disagreed int
	Share            string
}

// VerifiedMark is the photo page's line on its verification ("Placed by
// A, checked by B without seeing A's answer, 3 December 2026"), and an
// editor's request for a second look.
type VerifiedMark struct {
	Text string
	// State is the photo's second look for editors ("" for readers).
	State         string
	RequestAction string
	CSRF          string
	Version       string // the photo's, which the request sends back
}

// Stale is the page of a write from a form over a newer version than its
// editor saw: what changed since, by whom and when, and the choice to
// keep theirs (the same form again, at the version now) or redo it from
// what stands.
type Stale struct {
	Page
	Message string
	// Changes are the latest changes of the photo, newest last.
	Changes []EventRow
	// Action, Fields and Version make the form that keeps the editor's
	// change: the same fields, sent again at the version now.
	Action  string
	Fields  []Field
	Version string
	CSRF    string
	RedoURL string
}

// Field is a form's field to send again.
type Field struct{ Name, Value string }

// Answers are the two answers placed, as the map draws readings: each
// editor's pin, keyed 1 and 2 as the buttons are.
func (m Adjudication) Answers() []ReviewChoice {
	var out []ReviewChoice
	for _, a := range []LookAnswerView{m.A, m.B} {
		if a.Lon != "" {
			out = append(out, ReviewChoice{N: a.N, Lon: a.Lon, Lat: a.Lat, Name: a.Editor + ": " + a.Place})
		}
	}
	return out
}
