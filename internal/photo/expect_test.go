package photo

import "testing"

// TestIfMatch: If-Match is compared strongly (RFC 9110, 13.1.1): a weak
// tag of the current version never matches, nor another kind's tag.
func TestIfMatch(t *testing.T) {
	for _, c := range []struct {
		name, header string
		version      int64
		ok           bool
	}{
		{"none", "", 0, false},
		{"any", "*", 0, false},
		{"any, spaced", "  * ", 0, false},
		{"the tag", `"photo-7"`, 7, true},
		{"spaced", `  "photo-7" `, 7, true},
		{"version 0", `"photo-0"`, 0, true},
		{"weak", `W/"photo-7"`, -1, true},
		{"weak then strong", `W/"photo-7", "photo-8"`, 8, true},
		{"another's then ours", `"story-3","photo-4"`, 4, true},
		{"another kind's", `"story-7"`, -1, true},
		{"unquoted", `photo-7`, -1, true},
		{"unterminated", `"photo-7`, -1, true},
		{"negative", `"photo--1"`, -1, true},
		{"not a number", `"photo-x"`, -1, true},
		{"a tag with a comma first", `"a,b", "photo-2"`, 2, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, ok := IfMatch(c.header, VersionPhoto)
			if v != c.version || ok != c.ok {
				t.Errorf("IfMatch(%q) = %d, %v; want %d, %v", c.header, v, ok, c.version, c.ok)
			}
		})
	}
}

// TestETagRoundTrip: the tag ETag writes is the one IfMatch reads.
func TestETagRoundTrip(t *testing.T) {
	for _, v := range []int64{0, 1, 42, 1 << 40} {
		if got, ok := IfMatch(ETag(VersionStory, v), VersionStory); got != v || !ok {
			t.Errorf("IfMatch(ETag(%d)) = %d, %v", v, got, ok)
		}
	}
}
