package archive

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/ingest"
)

// TestEvalDatesWithPageDates reads the real captions of ../shared/eval as
// a JSON-lines import of them would (the caption and its page's address,
// whose /2016/09/24/ is the day the page was published) and counts the
// captions that gain a date over the caption read alone: by the caption's
// words read against the page's day (relative dates, a day and month
// without a year), and by the page's day itself; where the label gives
// the photo's date, how many are right. No labelled date may be lost or
// read wrong that the caption alone read right (issue 69, item 2).
//
//	go test ./internal/archive -run TestEvalDatesWithPageDates -v
func TestEvalDatesWithPageDates(t *testing.T) {
	eval := filepath.Join("..", "..", "..", "shared", "eval")
	files, _ := filepath.Glob(filepath.Join(eval, "*.jsonl"))
	if len(files) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI runs with ../shared beside the repo")
		}
		t.Skip("no ../shared/eval")
	}
	a := newArchive(t)
	var n, withPage, fromCaption, fromPage, labelled, labelledRight, lost int
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc bytes.Buffer
		var labels []*string
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var r struct {
				ID, Text, Source string
				Date             *string
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			out, _ := json.Marshal(map[string]string{"caption": r.Text, "source": r.Source})
			doc.Write(append(out, '\n'))
			labels = append(labels, r.Date)
		}
		i := 0
		for rec, err := range ingest.Read(&doc, filepath.Base(file), ingest.JSONL) {
			if err != nil {
				t.Fatal(err)
			}
			label := labels[i]
			i++
			n++
			alone := caption.Parse(rec.Caption).Date
			got := a.Build(rec)
			if rec.Published != nil {
				withPage++
			}
			if label != nil && alone.String() == *label && got.Date.String() != *label {
				lost++
				t.Errorf("%s: %q: labelled %s, read alone so, now %s (%s)", filepath.Base(file), rec.Caption, *label, got.Date, got.DateSource)
			}
			if !alone.IsZero() || got.Date.IsZero() {
				continue
			}
			right := ""
			if label != nil {
				labelled++
				right = "wrong"
				if got.Date.String() == *label {
					labelledRight++
					right = "right"
				}
			}
			if got.DateSource == "caption" {
				fromCaption++
			} else {
				fromPage++
			}
			t.Logf("%s gains %s (%s, page %v, label %v %s): %.90s", filepath.Base(file), got.Date, got.DateSource, rec.Published, deref(label), right, rec.Caption)
		}
	}
	t.Logf("%d captions, %d with a page's date in their address: %d gain a date by their words read against it, %d the page's date; "+
		"of those that gain one, %d have a labelled date, %d read right; %d labelled dates lost", n, withPage, fromCaption, fromPage, labelled, labelledRight, lost)
}

func deref(s *string) string {
	if s == nil {
		return "none"
	}
	return *s
}
