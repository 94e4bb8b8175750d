package ingest

import "testing"

// TestPublishedDate: the reference date a caption's day and month without
// a year are read in is the file's published column, else the date in
// the address of the source page (or of the image) the record names, as
// news sites write it: /2016/09/24/ or /2018/08/ (issue 66, item 2).
func TestPublishedDate(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"a published column", "caption,published\nA,2019-08-22\n", "2019-08-22"},
		{"the source page's address", "caption,source\nA,https://microsyria.com/2016/09/24/%d8%ad%d9%84%d8%a8/\n", "2016-09-24"},
		{"a month in the image's address", "caption,image_url\nA,https://example.org/wp-content/uploads/2018/08/x.jpg\n", "2018-08"},
		{"the column over the address", "caption,published,source\nA,2019-08-22,https://example.org/2016/09/24/x\n", "2019-08-22"},
		{"an address without a date", "caption,source\nA,https://www.enabbaladi.net/archives/177058\n", ""},
		{"numbers that are no date", "caption,source\nA,https://example.org/1999/13/40/x\n", ""},
	} {
		recs, err := readAll(t, c.doc, CSV)
		if err != nil || len(recs) != 1 {
			t.Fatalf("%s: %v, %d records", c.name, err, len(recs))
		}
		got := ""
		if recs[0].Published != nil {
			got = recs[0].Published.String()
		}
		if got != c.want {
			t.Errorf("%s: published %q, want %q", c.name, got, c.want)
		}
	}
}
