package review

import (
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/i18n"
)

// TestDoneMessageSaysWhatWasLeft: the message after a group's decision
// names what it left for a person, the place read elsewhere by its name in
// the page's language.
func TestDoneMessageSaysWhatWasLeft(t *testing.T) {
	a, _ := httpapitest.EmptyArchive(t)
	s := &API{Store: a}
	for _, tc := range []struct{ lang, done, want string }{
		{"en", "3:confirm:12", "3 photos confirmed."},
		{"en", "3:confirm:12:1:0:0:", "3 photos confirmed. 1 photo left for you: the geocoder was less sure of it than of this one."},
		{"en", "3:confirm:12:0:1:0:ocha:C3443", "3 photos confirmed. 1 photo with the same words left for you: it reads Sher."},
		{"en", "3:confirm:12:0:2:0:", "3 photos confirmed. 2 photos with the same words left for you: they read no place on the map or elsewhere."},
		{"en", "3:confirm:12:0:0:2:", "3 photos confirmed. 2 photos left for you: their captions do not name this place in any of its spellings."},
		{"ar", "3:confirm:12:0:1:0:ocha:C3443", "أُكّدت ٣ صور. تُركت لك صورة واحدة بالكلمات نفسها: تُقرأ \u2068شير\u2069."},
		{"ar", "3:confirm:12:0:2:0:", "أُكّدت ٣ صور. تُركت لك صورتان بالكلمات نفسها: تُقرآن \u2068لا مكان على الخريطة\u2069 أو مكانًا آخر."},
		{"en", "3:confirm:12:x:1:", "3 photos confirmed."},
	} {
		l := i18n.Locale{Lang: i18n.Lang(tc.lang)}
		if got := s.doneMessage(l, tc.done); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.lang, tc.done, got, tc.want)
		}
	}
}
