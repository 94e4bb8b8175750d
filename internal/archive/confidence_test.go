package archive

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/geocode"
	"github.com/syriamap/syriamap/internal/photo"
)

// The confidence is refitted on the archive's reviews: in an archive whose
// reviewers found the geocoder's sure answers of a kind wrong (half the
// photos of six towns corrected to a point far away), the same kind of
// answer to the photos nobody reviewed is no longer given 0.8 or more
// after regeocode, and the archive keeps the model across openings.
// Fewer reviews than geocode.MinReviews refit nothing.
func TestConfidenceIsRefittedOnReviews(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "archive.db")
	a := openTest(t, path)
	var lines []string
	var reviewed, unreviewed []string
	for _, town := range []string{"Douma", "Saraqeb", "Manbij", "Azaz", "Jarablus", "Daraya"} {
		for day := 1; day <= 20; day++ {
			c := fmt.Sprintf("Men walk past damaged buildings in %s, Syria, May %d, 2016. (Photo by A. Person/Reuters)", town, day)
			lines = append(lines, c)
			if day <= 10 {
				reviewed = append(reviewed, photo.ID(c))
			} else {
				unreviewed = append(unreviewed, c)
			}
		}
	}
	file := filepath.Join(t.TempDir(), "captions.txt")
	os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	if _, err := a.ImportFile(ctx, file, "", nil); err != nil {
		t.Fatal(err)
	}
	mean := func(a *Archive) (m float64, sure int) {
		for _, c := range unreviewed {
			conf := a.Build(ingestCaption(c)).Place.Confidence
			m += conf / float64(len(unreviewed))
			if conf >= 0.8 {
				sure++
			}
		}
		return m, sure
	}
	before, sureBefore := mean(a)
	if sureBefore < len(unreviewed)/2 {
		t.Fatalf("only %d of %d answers are sure before the reviews; the test wants sure answers", sureBefore, len(unreviewed))
	}
	far, err := a.PlaceOf("", &[2]float64{40.5, 35.3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.db.Apply(ctx, reviewed[:geocode.MinReviews-1], photo.Change{Place: &far, Author: "rana"}); err != nil {
		t.Fatal(err)
	}
	if n, refitted, _, err := a.RefitConfidence(ctx); err != nil || refitted || n != geocode.MinReviews-1 {
		t.Fatalf("with %d reviews: refitted %v, %v", n, refitted, err)
	}
	if _, err := a.db.Apply(ctx, reviewed[geocode.MinReviews-1:], photo.Change{Place: &far, Author: "rana"}); err != nil {
		t.Fatal(err)
	}
	n, refitted, why, err := a.RefitConfidence(ctx)
	if err != nil || !refitted || n != len(reviewed) {
		t.Fatalf("refit on %d reviews: %v (%s), %v", n, refitted, why, err)
	}
	after, sureAfter := mean(a)
	if sureAfter > 0 || after > before-0.2 {
		t.Errorf("after the reviews: mean confidence %.2f (before %.2f), %d answers still at 0.8 or more", after, before, sureAfter)
	}
	a.Close()
	a = openTest(t, path)
	if again, _ := mean(a); again != after || !strings.Contains(a.Geocoder().Model().FittedOn, "reviewed answers") {
		t.Errorf("reopened, the archive answers %.2f with %q", again, a.Geocoder().Model().FittedOn)
	}
}
