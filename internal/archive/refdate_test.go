package archive

import (
	"context"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestImportReadsAYearlessDateInThePublishedYear: a caption that gives a
// day and a month without a year ("21 من آب", as Enab Baladi writes it)
// takes the year of the date the file says the page was published; with
// none it has no date, never a guessed year (issue 66, item 2).
func TestImportReadsAYearlessDateInThePublishedYear(t *testing.T) {
	a := newArchive(t)
	ctx := context.Background()
	withRef := "قصف جوي على بلدة معرشورين جنوب إدلب - 21 من آب (الدفاع المدني)"
	without := "غارات حربية على مدينة اللطامنة، الأربعاء 7 تشرين الأول"
	file := write(t, "enab.csv", "caption,published\n"+withRef+",2019-08-22\n"+without+",\n")
	if _, err := a.ImportFile(ctx, file, "", nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ caption, want string }{{withRef, "2019-08-21"}, {without, ""}} {
		p, err := a.db.Photo(ctx, photo.ID(c.caption))
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Date.String(); got != c.want {
			t.Errorf("%s: date %q, want %q", c.caption, got, c.want)
		}
		if p.Given&photo.GivenDate != 0 {
			t.Errorf("%s: the date is the caption's, read in the published year, not one the file gives", c.caption)
		}
	}
}
