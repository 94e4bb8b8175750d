// Package views renders syriamap's HTML pages with templ. Every component
// is a function of a view model defined here: handlers build the model
// (all links come from named routes), views only present it.
package views

import "strings"

// Page is what every page shares: its title and the site's links.
type Page struct {
	Title string
	// StyleURL is the hashed style sheet's URL, IconURL the site's icon.
	StyleURL, IconURL string
	Nav               []Link
	// Styles and Scripts are further hashed files the page loads.
	Styles, Scripts []string
	// Preloads are the data the page's script asks for first, fetched
	// while the script itself loads (rel=preload as=fetch). Each must be
	// the very URL the script fetches, or it is fetched twice.
	Preloads []string
	// Editor is who is signed in ("" for nobody), with the session's CSRF
	// token for the sign-out form; SignInURL and SignOutURL the forms'.
	Editor, CSRF          string
	SignInURL, SignOutURL string
	// OtherLang is this page in the other language, Digits (on an Arabic
	// page) in the other digits; their URL is "" where there is none.
	OtherLang, Digits Choice
	// Static is a published site's manifest (its data files, see
	// internal/http/publish), written into the page for its script; nil when a
	// server answers the page's requests.
	Static any
	// CSP is the page's content security policy as a meta element, for a
	// published page (a server sends it as a header instead), or "".
	CSP string
}

// Choice is a link to the page as the reader would choose it: its label
// in its own language (Lang).
type Choice struct {
	Label, URL, Lang string
}

// Link is a labelled URL; Current marks the page being shown.
type Link struct {
	Label, URL string
	Current    bool
}

// PhotoRow is one photo in a list.
type PhotoRow struct {
	ID, URL, Caption string
	// Date is written out at its precision ("19 September 2016",
	// "March 2013", "2014"); "" when undated.
	Date         string
	Credit       string
	PlaceName    string
	PlaceURL     string // "" for a bare point or no place
	Placement    Placement
	ThumbnailURL string
	// Graphic shows the thumbnail blurred until the reader asks.
	Graphic bool
}

// Placement says how sure the geocoder was, for a badge.
type Placement struct {
	// Class is "exact", "fallback", "low" or "none".
	Class string
	// Label is what the badge says, e.g. "exact · 0.95".
	Label string
}

// Option is one choice of a filter, with how many photos it has.
type Option struct {
	Value, Label string
	Count        int
	Counted      bool // Count is known (else the label alone is shown)
	Selected     bool
}

// Filters are the explorer's filter form, as the user set it.
type Filters struct {
	Action string // the explorer's URL
	// FacetsURL and PlacesSearchURL are the API the lists search and count.
	FacetsURL, PlacesSearchURL string
	From, To, Q                string
	MinConfidence              string
	// Agreement is "", "agrees", "near" or "disagrees": the photos whose
	// caption agrees with their image file's metadata so.
	Agreement string
	// Reuse is "", "conflict" or "copy" (photo.Reuse*); ReuseOffered
	// shows its field (a published site has no frames to filter by).
	Reuse        string
	ReuseOffered bool
	// Event is "" or "any" (photos an editor linked to a conflict event,
	// photo.EventAny), or an event's key; EventOffered in the live
	// explorer and a published site's that has events (the review
	// queue has no need of it).
	Event        string
	EventOffered bool
	// Verified is "1" for the placements a second editor confirmed
	// blind; VerifiedOffered in the explorers, live and published.
	Verified        string
	VerifiedOffered bool
	Agencies        []Option
	Photographers   []Option
	Governorates    []Option
	Places          []Option
}

// Explorer is the explorer page: filters, counts, a page of photos and the
// downloads of exactly the selection.
type Explorer struct {
	Page
	Filters Filters
	// Matching photos of Total in the archive; Rows show From..To of them.
	Matching, Total int
	From, To        int
	Rows            []PhotoRow
	PrevURL         string
	NextURL         string
	Downloads       []Link
	Map             MapConfig
}

// MapConfig is what the map and timeline script needs: the API's URLs
// (templates with {id} where a photo or place id goes) and, if the user
// asked for one, an online tile layer.
type MapConfig struct {
	PointsURL, ClustersURL    string
	TimelineURL, BasemapURL   string
	FacetsURL, LabelsURL      string
	ListURL, CSVURL           string
	PhotoGeoJSONURL, PlaceURL string
	// PlacesSearchURL finds places by any spelling, for the Place filter.
	PlacesSearchURL string
	// EventsURL is the conflict events' points for the map's events
	// layer; "" for none.
	EventsURL string
	Tiles     string
	Total     int
	// PointsLimit is the archive size above which the server clusters.
	PointsLimit int
	// Editor says an editor is signed in: a photo may be added to a story.
	Editor bool
	// EvidenceURL, for an editor, is where the selection is posted (with
	// the session's CSRF token) for its evidence bag; "" for readers.
	EvidenceURL, CSRF string
}

// MiniMap is a small map of one point, on a photo's or a place's page.
type MiniMap struct {
	BasemapURL, LabelsURL, Tiles string
	Lon, Lat                     string
	Label                        string
	// GPSLon and GPSLat are the camera's GPS point, drawn beside the
	// photo's place; "" when the file has none or it is not shown.
	GPSLon, GPSLat string
}

// Alternative is a place the geocoder weighed.
type Alternative struct {
	Name, URL, Mention, Score string
}

// Source is a file a photo was imported from.
type Source struct {
	File       string
	Line       int
	Ref, Label string
}

// PhotoPage is one photo with everything known about it.
type PhotoPage struct {
	Page
	Photo         PhotoRow
	DatePrecision string
	// DateSource says in words where the date came from ("from the
	// caption"); "" for an undated photo.
	DateSource   string
	Photographer string
	Agency       string
	ImageURL     string
	// RemoteImage is the address of a picture held on another site (the
	// image_url a photo was imported with): linked, never loaded into the
	// page, so that no reader's visit is reported to that site.
	RemoteImage string
	// OtherImages are the links of the photo's other pictures (files that
	// gave its caption with another image).
	OtherImages  []string
	PlaceKind    string
	Governorate  string
	Coordinates  string // "36.353610, 33.524720" (lon, lat), "" when unplaced
	Confidence   string
	Precision    string // the badge's word for it, in the page's language
	Mention      string
	Note         string
	Corrected    string // the correction's note, when a person placed it
	Alternatives []Alternative
	Sources      []Source
	GeoJSONURL   string
	Map          *MiniMap // nil for an unplaced photo
	// History is what people changed, oldest first; ReviewURL where an
	// editor corrects it.
	History   []EventRow
	ReviewURL string
	// Custody are the photo's custody records, oldest first.
	Custody []CustodyRow
	// EvidenceURL is where an editor posts for the photo's evidence bag.
	EvidenceURL string
	// File is what the photo's image file says, nil when it came from
	// text.
	File *ImageFile
	// Harm is the mark an editor put on the photo, and for an editor the
	// form that changes it; nil for a reader of an unmarked photo.
	Harm *Harm
	// Events are the conflict events it documents, and an editor's
	// candidates.
	Events *PhotoEvents
	// Verified says who placed it and who checked it blind; nil when
	// nobody did and the reader is not an editor.
	Verified *VerifiedMark
}

// Harm is an editor's mark on a photo (graphic or withheld) as a page
// shows it: the mark, who put it and why, and for an editor the form
// that changes it.
type Harm struct {
	// Mark is "graphic", "withheld" or "" for none.
	Mark string
	// By, At and Reason are the mark's custody record ("" without one).
	By, At, Reason string
	// Action is where an editor's form posts ("" for a reader), CSRF the
	// session's token and Next the page to come back to.
	Action, CSRF, Next string
	// Version is the photo's, which the forms send back (see
	// photo.Expect).
	Version string
	// Status says what the editor's last decision did ("Linked GED
	// 243931 to this photo as documenting it"); IDError why the event
	// typed in the link-by-id field was refused, and Typed what was
	// typed, kept in the field. "" for none.
	Status, IDError, Typed string
}

// ImageFile is what an imported image file says about itself and how it
// agrees with the caption.
type ImageFile struct {
	Name string // the file's base name
	// From says which metadata block was read (IPTC IIM or XMP).
	From                      string
	Location, Credit, Created string
	GPS                       string // "lat, lon", "" without GPS
	EXIFTime, Camera          string
	Agreement, Parts, Note    string // see photo.Check
	// NoteLang is the Note's language when it is not the page's ("en":
	// a stored note the page could not say again).
	NoteLang string
	// Reuse says where else the picture's frame is in the archive; nil
	// when nowhere.
	Reuse *ReuseLine
}

// ReuseLine is a sentence about the same frame under another caption,
// with a link to that photo; Conflict when the captions disagree.
type ReuseLine struct {
	Conflict  bool
	Text, URL string
}

// Bar is one bin of a histogram.
type Bar struct {
	Label string
	Count int
	// X, Width and Height place the bar in a 1000×100 view box.
	X, Width, Height float64
}

// PlacePage is a place with its photos over time.
type PlacePage struct {
	Page
	ID, Name, Kind string
	NameAr         string // "" when no source gives one
	// Within lists what holds the place, largest first: governorate,
	// district, subdistrict, then its city or town; a Link without URL is
	// shown as text.
	Within []Link
	// OtherSide is a border crossing's gate in the other country, nil
	// for every other place.
	OtherSide   *Link
	Country     string
	Names       []string
	Coordinates string
	// Records are the source records merged into the place, each linking
	// to where it can be looked up.
	Records     []Link
	Photos      int
	First, Last string // the first and last bins with photos
	Bars        []Bar
	Recent      []PhotoRow
	PhotosURL   string // the explorer filtered to the place
	Downloads   []Link
	Map         *MiniMap // nil for a place without a point
}

// About is the page that says what syriamap is.
type About struct {
	Page
	Photos, Places int
	Credits        []Credit
	Pages          []CreditPage
	Downloads      []Link
	// OGCURL is the OGC API – Features landing page and TileJSONURL the
	// vector tiles', absolute, for GIS clients to connect to.
	OGCURL, TileJSONURL string
	// Published says the page is of a static copy (syriamap publish):
	// no server, so no live layer to connect to.
	Published bool
	// GEDEvents is how many UCDP GED events the archive holds (of version
	// GEDVersion), cited as GEDCitation; none, no section.
	GEDEvents               int
	GEDVersion, GEDCitation string
}

// StaticPhoto is a published site's photo page: the script fills it in
// from the site's data, for the photo its address names.
type StaticPhoto struct {
	Page
	Map MapConfig
}

// Credit is one dataset the bundled data comes from.
type Credit struct {
	Name, URL           string
	Licence, LicenceURL string
	Credit, UsedFor     string
	// Key is the source's name as recorded, which the catalogue's
	// "credit." words are filed under.
	Key string
}

// CreditPage is a page a curated place's point or name was read from.
type CreditPage struct {
	Place, PlaceURL string
	Point           string // "lat, lon", or "" for no point
	URL             string
}

// SignIn is the sign-in page: the form, and why it failed if it did.
type SignIn struct {
	Page
	Action, Next string
	// PasswordAction is where a signed-in editor changes their password.
	PasswordAction string
	Name           string // as typed, kept after a failure
	Message        string
}

// ReviewQueue lists the photos no person has checked, grouped by the
// caption text their place was read from, the ones that most need a
// person first.
type ReviewQueue struct {
	Page
	Filters Filters
	Groups  []ReviewGroup
	// Unchecked counts the photos in the groups shown.
	Unchecked int
	LogURL    string
	// UploadURL is where editors add photos; "" when the server takes no
	// uploads.
	UploadURL string
	// SecondLooksURL is the queue of blind second looks.
	SecondLooksURL string
	Flash          string // what the last form did
	Undo           *Undo  // undoes it, when it changed a group
	Offer          *Offer // places the group's others named like a place just added
	// WhyNot says why the visitor cannot correct (not signed in, a
	// read-only server), "" when they can.
	WhyNot string
	// Marked are the photos editors marked graphic or withheld, latest
	// first, for an editor (withheld ones are found nowhere else).
	Marked []MarkedPhoto
}

// MarkedPhoto is a photo an editor marked: its mark, caption and page.
type MarkedPhoto struct {
	Mark, Caption, URL string
}

// ReviewGroup is photos whose captions name the same place.
type ReviewGroup struct {
	Mention                         string   // "" for captions that name no known place
	AlsoWritten                     []string // the group's other spellings of Mention
	Photos, Unplaced, Fallback, Low int
	Disagrees                       int // image metadata disagrees with the caption
	PlaceName                       string
	URL                             string // its first photo's review page
}

// Undo is the form that undoes a change made to a group.
type Undo struct {
	Action, CSRF, Batch, Next string
}

// Offer is the form, after an editor added a place, that places there too
// the group's other photos whose captions name it.
type Offer struct {
	Action, CSRF, PlaceID, Group, Next string
}

// GroupPart is the photos of a review group shown at one place.
type GroupPart struct {
	Name string
	// Where tells parts of one name apart: the place's kind and
	// governorate ("village, Idlib"), "" for unplaced photos and points.
	Where  string
	Photos int
	Here   bool // this photo's part
	// PlaceID is the part's gazetteer place, "" for unplaced photos and
	// points: a part with one can be confirmed with this photo's.
	PlaceID string
}

// ReviewChoice is a place a reviewer may choose, numbered for the keys.
type ReviewChoice struct {
	N                   int
	PlaceID, Name, Kind string
	Score               string
	Lon, Lat            string // "" without a point
	// Label is what the map calls it: its name and kind ("Aleppo
	// (city)"), so that places of one name are told apart; "" for Name.
	Label string
}

// MapLabel is the choice's label on the map.
func (c ReviewChoice) MapLabel() string {
	if c.Label != "" {
		return c.Label
	}
	return c.Name
}

// CaptionPart is a piece of a caption, marked when it is the text the
// place was read from.
type CaptionPart struct {
	Text string
	Mark bool
}

// ReviewMap is the review pages' map: the offline basemap and what the
// photo's file says of where it was taken.
type ReviewMap struct {
	BasemapURL, LabelsURL string
	Tiles                 string // the online tiles' URL template (--tiles), or ""
	// GPSLon and GPSLat are the camera's point, where the visitor may see
	// it; IPTCLon, IPTCLat and IPTCLabel the place the file's IPTC
	// location names ("" when it names none the gazetteer knows).
	GPSLon, GPSLat              string
	IPTCLon, IPTCLat, IPTCLabel string
}

// ReviewPhoto is one photo under review: its caption with the place's
// words marked, the place chosen and the other readings, and the forms
// that correct, confirm or fix it.
type ReviewPhoto struct {
	Page
	ID, PhotoURL string
	// Version is the photo's as shown, which the forms send back (see
	// photo.Expect).
	Version             string
	Caption             []CaptionPart
	Date, DatePrecision string
	DateShown           string // Date in the reader's words
	Photographer        string
	Agency              string        // as the archive holds it, which the form edits
	AgencyShown         string        // Agency in the reader's language
	Chosen              *ReviewChoice // nil when unplaced
	Placement           Placement
	Mention, Note       string
	Alternatives        []ReviewChoice
	// Action is where the forms post; CSRF the session's token.
	Action, CSRF string
	WhyNot       string
	// Group is the caption text the photos of this review share; Split
	// how its unchecked photos are placed now; Same how many of them
	// share this photo's place, SameAt: the photos "apply to all" decides.
	Group                            string
	Split                            []GroupPart
	Same                             int
	SameAt                           string
	Position                         int
	Of                               int
	PrevURL, NextURL, QueueURL, Next string
	// SearchURL finds gazetteer places by name, for the place field.
	SearchURL string
	// AwaitsLookURL, when set, is the second looks' queue: the photo's
	// placement waits for a blind second look by someone other than the
	// viewer's own hand, so the page offers no placement of its own.
	AwaitsLookURL string
	Map           ReviewMap
	Flash         string // what the last form did
	Undo          *Undo  // undoes it, when it changed a group
	Offer         *Offer // places the group's others named like a place just added
	History       []EventRow
	// ImageURL is the picture's large derivative ("" for none); File what
	// its image file says, as on the photo page (nil for none).
	ImageURL string
	// RemoteImage is a picture held on another site, linked (see
	// PhotoPage.RemoteImage).
	RemoteImage string
	File        *ImageFile
	// Graphic shows the picture blurred until the editor asks; Harm is
	// the mark with its form.
	Graphic bool
	Harm    *Harm
	// Events are the conflict events it documents and its candidates.
	Events *PhotoEvents
	// Draft is what an editor had typed in the form when their session
	// ended, by field (note, place_id, lon, lat), to type again.
	Draft map[string]string
	// AddKinds are the kinds a place added from the review may be.
	AddKinds []Option
}

// ReviewLog is the latest changes people made.
type ReviewLog struct {
	Page
	Events []EventRow
}

// CustodyRow is one custody record of a photo, as its page shows it.
type CustodyRow struct {
	At, By, Action string
	Source         string // the file it was imported from, by name
	FileSHA256     string // the image file's SHA-256, where the record names one
	Note           string
	Hash           string // the record's hash, shortened
}

// EventRow is one change, written for people.
type EventRow struct {
	At, By, Action    string
	PhotoID, PhotoURL string
	Before, After     string
	Note              string
}

// OGC is an OGC API resource shown as a page: what it is, its links and
// facts, and for a page of items a table of them.
type OGC struct {
	Page
	Heading, Description string
	Links                []Link
	Facts                []Fact
	// Columns head the items' table; each item has a cell per column.
	Columns []string
	Items   []OGCItem
}

// Fact is a labelled value.
type Fact struct{ Label, Value string }

// OGCItem is one row of an items table.
type OGCItem struct {
	ID, URL string
	Cells   []string
}

// agreementOptions are the choices of the explorer's image metadata
// filter, each labelled by its catalogue key.
var agreementOptions = []struct{ Value, Label string }{
	{"", "agreement.any"},
	{"disagrees", "agreement.option.disagrees"},
	{"near", "agreement.option.near"},
	{"agrees", "agreement.option.agrees"},
}

// verifiedOptions are the choices of the verified-placement filter.
var verifiedOptions = []struct{ Value, Label string }{
	{"", "agreement.any"},
	{"1", "verified.option.only"},
}

// eventOptions are the choices of the linked-event filter.
var eventOptions = []struct{ Value, Label string }{
	{"", "agreement.any"},
	{"any", "events.option.linked"},
}

// reuseOptions are the choices of the same-frame filter.
var reuseOptions = []struct{ Value, Label string }{
	{"", "agreement.any"},
	{"conflict", "reuse.option.conflict"},
	{"copy", "reuse.option.copy"},
}

// agreementLabel is the catalogue key that names an agreement for
// people ("" for none).
func agreementLabel(agreement, parts string) string {
	switch agreement {
	case "agrees", "near":
		return "agreement.label." + agreement
	case "disagrees":
		switch parts {
		case "place", "clock", "created", "credit":
			return "agreement.label.disagrees-" + parts
		case "place clock":
			return "agreement.label.disagrees-place-clock"
		}
		return "agreement.label.disagrees"
	}
	return ""
}

// quotedList quotes names and joins them: “Al Mushayrifah”, “MUSHAYRIFAH”.
func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "“" + n + "”"
	}
	return strings.Join(q, ", ") // names in Latin script, quoted and joined as English writes them
}

// StoryList lists the stories: the published ones, and drafts for an
// editor, who may start a new one (NewURL, "" for readers).
type StoryList struct {
	Page
	Stories []StoryItem
	NewURL  string
}

// StoryItem is a story in the list.
type StoryItem struct {
	Title, URL string
	// SummaryHTML is the summary rendered by internal/markdown: inert.
	SummaryHTML         string
	Author, Updated     string
	Draft               bool
	EditURL, HistoryURL string // "" for readers
}

// StoryPage is a story as a reader steps through it.
type StoryPage struct {
	Page
	Slug, Title string
	// SummaryHTML is the summary rendered by internal/markdown: inert.
	SummaryHTML     string
	Author, Updated string
	Draft           bool
	EditURL         string // "" for readers
	Steps           []StoryStep
	// What the script needs: the offline basemap, the place labels, the
	// clusters of a step's explorer state, and the explorer itself.
	BasemapURL, LabelsURL, ClustersURL, ExplorerURL, Tiles string
	// EventsURL is the conflict events' points, drawn for a step whose
	// saved view has the events layer on (events=); "" for none.
	EventsURL string
}

// StoryStep is one step of a story page.
type StoryStep struct {
	N        int // from 1
	Heading  string
	TextHTML string // rendered by internal/markdown: inert
	Photos   []StoryPhoto
	// State is a saved explorer state (a permalink's query), "" for a
	// step of photos; From and To its window (YYYY-MM, "" for none),
	// View its map view (zoom/lat/lon, "" to fit the photos).
	State, From, To, View string
	Highlight             string
	ExploreURL            string
	// Points are the step's placed photos for the map: JSON
	// [[id, lon, lat], …].
	Points string
}

// StoryPhoto is a photo of a step, with where its place came from; a
// photo no longer in the archive is Missing, shown by the caption it had.
type StoryPhoto struct {
	Row         PhotoRow
	Mention     string // the caption's text the place was read from
	Confidence  string // "0.92"
	CorrectedBy string // "" when the geocoder's
	Highlight   bool
	Missing     bool
	// MissingWhy is the catalogue key of why a Missing photo is not
	// shown ("" for "no longer in the archive").
	MissingWhy string
}

// StoryEdit is the editor of a story: the script builds the form from
// Story (JSON) and saves it to SaveURL with Method.
type StoryEdit struct {
	Page
	Title                  string
	Story                  string
	SaveURL, Method        string
	PhotoURL               string // a photo's GeoJSON, {id} for its id
	ReaderURL, ExplorerURL string
	// Version is the story's ETag as the editor opened it, which a save
	// sends back as If-Match ("" for a new story).
	Version string
}

// ReviewConfirmAll is the second step of "apply to all" from an answer
// under the low line: the photos it would confirm, listed, and the form
// that confirms them, sent again with sure=1.
type ReviewConfirmAll struct {
	Page
	Place   string // where they would be confirmed, in the reader's words
	Photos  []Link // each photo, by its caption, to its review page
	Action  string
	CSRF    string
	Fields  []Hidden // the first form's fields, sent again
	BackURL string
}

// Hidden is a form's hidden field.
type Hidden struct{ Name, Value string }

// PhotoEvents are the conflict events a photo documents (the links an
// editor confirmed) and, for an editor, the linker's candidates with the
// forms that decide them; nil when there is nothing to show.
type PhotoEvents struct {
	Links      []EventLinkRow
	Candidates []EventLinkRow
	// Action is where an editor's forms post, with the session's CSRF
	// token and the page to come back to; "" for a reader.
	Action, CSRF, Next string
	// Version is the photo's, which the forms send back (see
	// photo.Expect).
	Version string
	// Status says what the editor's last decision did ("Linked GED
	// 243931 to this photo as documenting it"); IDError why the event
	// typed in the link-by-id field was refused, and Typed what was
	// typed, kept in the field. "" for none.
	Status, IDError, Typed string
}

// EventLinkRow is one event beside a photo: why it meets the photo,
// in words, and what an editor decided of it.
type EventLinkRow struct {
	Dataset, ID, URL string
	Why, Score       string
	// Label names the event in the page's language when it is not
	// English ("حدث GED رقم ٢١٤٨٠٨ · …"), Why then the linker's reasons
	// alone, in English; "" on an English page, whose link is Why.
	Label  string
	Likely bool
	// Decision is confirmed, rejected or ""; Decided says who and when.
	Decision, Decided string
	// Retired names the dataset's version that dropped the event.
	Retired string
	// Group are the ids of the rows of the candidate's incident, its
	// own first, when the dataset holds several: its forms decide them
	// all.
	Group []string
}

// EventPage is one conflict event: what its dataset says, how well its
// place and day are known, the photos linked to it and those near it in
// place and time that nobody linked.
type EventPage struct {
	Page
	Dataset, ID string
	Facts       []Fact
	Headline    string
	Map         *MiniMap
	Linked      []PhotoRow
	Nearby      []PhotoRow
	// Citation is how the dataset asks to be cited; CitedInEnglish when
	// it is its own (English) words, not the page's.
	Citation       string
	CitedInEnglish bool
}

// UploadPage is the upload page's model: where its script sends files
// (tus), asks for their import, and sends the editor after.
type UploadPage struct {
	Page
	UploadsURL, ImportsURL, ReviewURL string
	// ReviewPhotoURL is a photo's review page, ID for its id.
	ReviewPhotoURL string
	// Lost says which files the editor sent that a stopped server never
	// imported, a sentence each, latest first.
	Lost []string
	// ReusedURL is the review queue filtered to the frames the archive
	// held under a caption that disagrees (reuse=conflict).
	ReusedURL string
	// Kinds say what each kind of file the page takes holds, before
	// anything is sent.
	Kinds []UploadKind
}

// UploadKind is a kind of file the upload page takes: its id (txt, csv,
// jsonl, jpeg), its names (".txt") and what it holds, in words.
type UploadKind struct {
	Kind, Names, Holds string
}
