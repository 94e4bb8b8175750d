package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/evalset"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// The review loop measures what an archive's reviewers teach the
// geocoder, the way an archive lives it: labelled captions are imported
// with `syriamap import`, the least confident fifth of the answers is
// reviewed through the write API (PUT /api/photos/{id}/placement: right
// answers confirmed, wrong ones corrected to the label's point), then
// `syriamap regeocode` refits the confidence on those reviews and places
// the rest again. The photos nobody reviewed are scored before and after,
// as ../shared/eval/score.py scores them. Run on captions the geocoder's
// rules were never written against (a held-out set), it says whether the
// archive's own reviews make its sure answers right.

// loopPhoto is one photo of the loop's archive as the API gives it.
type loopPhoto struct {
	id         string
	label      evalset.Caption
	place      *gazetteer.Place // nil: unplaced, or placed at a bare point
	confidence float64
}

// loopScore is how the unreviewed photos fare at one step.
type loopScore struct {
	right, n        int
	sureRight, sure int     // answers at confidence >= 0.8
	confidence      float64 // the placed answers' mean
}

func (s loopScore) String() string {
	return fmt.Sprintf("place right %5.1f %% (%d/%d)   at confidence >= 0.8: %d/%d right (%.1f %%)   mean confidence %.3f",
		100*float64(s.right)/float64(max(1, s.n)), s.right, s.n, s.sureRight, s.sure, 100*float64(s.sureRight)/float64(max(1, s.sure)), s.confidence)
}

// runReviewLoop plays the loop on the labelled captions of files with the
// syriamap binary bin, in a folder under dir, prints its figures and
// returns the scores of the unreviewed photos before and after.
func runReviewLoop(ctx context.Context, bin, dir string, files []string, stdout io.Writer) (before, after loopScore, err error) {
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		return before, after, err
	}
	var labels []evalset.Caption
	for _, f := range files {
		caps, err := evalset.Read(f)
		if err != nil {
			return before, after, err
		}
		labels = append(labels, caps...)
	}
	work, err := os.MkdirTemp(dir, "review-loop-")
	if err != nil {
		return before, after, err
	}
	defer os.RemoveAll(work)
	db := filepath.Join(work, "archive.db")
	token, err := loopArchive(ctx, bin, db, work, labels)
	if err != nil {
		return before, after, err
	}
	first, err := loopPhotos(ctx, bin, db, g, labels)
	if err != nil {
		return before, after, err
	}
	reviewed, confirmed, corrected, left, err := review(ctx, bin, db, token, g, first)
	if err != nil {
		return before, after, err
	}
	out, err := exec.CommandContext(ctx, bin, "regeocode", "--db", db).CombinedOutput()
	if err != nil {
		return before, after, commandError("syriamap regeocode", err, out)
	}
	again, err := loopPhotos(ctx, bin, db, g, labels)
	if err != nil {
		return before, after, err
	}
	sb, sa := scoreUnreviewed(first, reviewed, g), scoreUnreviewed(again, reviewed, g)
	fmt.Fprintf(stdout, "review loop: %d captions from %s imported; %d reviewed through PUT /api/photos/{id}/placement (%d confirmed, %d corrected to the label's point, %d rightly unplaced, %d left: the label has no point)\n",
		len(labels), strings.Join(baseNames(files), ", "), len(reviewed), confirmed, corrected, len(reviewed)-confirmed-corrected-left, left)
	fmt.Fprintf(stdout, "syriamap regeocode: %s\n", firstLine(out))
	fmt.Fprintf(stdout, "on the %d photos nobody reviewed:\n", sb.n)
	fmt.Fprintf(stdout, "  before (the shipped model):  %s\n", sb)
	fmt.Fprintf(stdout, "  after regeocode:             %s\n", sa)
	fmt.Fprintf(stdout, "targets: at confidence >= 0.8 at least 97 %% right; place right no lower than before\n")
	return sb, sa, nil
}

// loopArchive imports the captions into a new archive at db and returns
// a bearer token of its one editor.
func loopArchive(ctx context.Context, bin, db, work string, labels []evalset.Caption) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, l := range labels {
		if err := enc.Encode(map[string]string{"caption": l.Text}); err != nil {
			return "", err
		}
	}
	captions := filepath.Join(work, "captions.jsonl")
	if err := os.WriteFile(captions, buf.Bytes(), 0o644); err != nil {
		return "", err
	}
	steps := []struct {
		args  []string
		stdin string
	}{
		{[]string{"import", "--db", db, captions}, ""},
		{[]string{"users", "add", "--db", db, "--password-stdin", "reviewer"}, "a reviewer's long password\n"},
	}
	for _, s := range steps {
		cmd := exec.CommandContext(ctx, bin, s.args...)
		cmd.Stdin = strings.NewReader(s.stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", commandError("syriamap "+strings.Join(s.args[:2], " "), err, out)
		}
	}
	out, err := exec.CommandContext(ctx, bin, "tokens", "create", "--db", db, "reviewer").Output()
	if err != nil {
		return "", commandError("syriamap tokens create", err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// loopPhotos serves the archive and reads every photo back through the
// API, each matched to its label by its caption.
func loopPhotos(ctx context.Context, bin, db string, g *gazetteer.Gazetteer, labels []evalset.Caption) ([]loopPhoto, error) {
	s, err := startServer(ctx, bin, db)
	if err != nil {
		return nil, err
	}
	defer s.close()
	byText := map[string][]evalset.Caption{}
	for _, l := range labels {
		k := strings.Join(strings.Fields(l.Text), " ")
		byText[k] = append(byText[k], l)
	}
	var out []loopPhoto
	for _, q := range []string{"", "?unplaced=true"} {
		body, err := httpGet(ctx, s.url+"/api/photos.geojson"+q)
		if err != nil {
			return nil, err
		}
		var fc struct {
			Features []struct {
				ID         string `json:"id"`
				Properties struct {
					Caption    string   `json:"caption"`
					PlaceID    *string  `json:"place_id"`
					Confidence *float64 `json:"confidence"`
				} `json:"properties"`
			} `json:"features"`
		}
		if err := json.Unmarshal(body, &fc); err != nil {
			return nil, fmt.Errorf("/api/photos.geojson%s: %w", q, err)
		}
		for _, f := range fc.Features {
			if slices.ContainsFunc(out, func(p loopPhoto) bool { return p.id == f.ID }) {
				continue
			}
			k := strings.Join(strings.Fields(f.Properties.Caption), " ")
			ls := byText[k]
			if len(ls) == 0 {
				return nil, fmt.Errorf("photo %s: its caption is none of the labelled ones", f.ID)
			}
			p := loopPhoto{id: f.ID, label: ls[0]}
			byText[k] = ls[1:]
			if f.Properties.PlaceID != nil {
				p.place = g.ByID(*f.Properties.PlaceID)
			}
			if f.Properties.Confidence != nil {
				p.confidence = *f.Properties.Confidence
			}
			out = append(out, p)
		}
	}
	if len(out) != len(labels) {
		return nil, fmt.Errorf("the archive gave %d photos for %d captions (the same caption twice is one photo)", len(out), len(labels))
	}
	return out, nil
}

// review reviews the least confident fifth (unplaced first, as the queue
// orders them) through the write API, going on down the queue until a
// refit has the reviews it needs, and returns the ids reviewed.
func review(ctx context.Context, bin, db, token string, g *gazetteer.Gazetteer, photos []loopPhoto) (reviewed map[string]bool, confirmed, corrected, left int, err error) {
	s, err := startServer(ctx, bin, db)
	if err != nil {
		return nil, 0, 0, 0, err
	}
	defer s.close()
	queue := slices.Clone(photos)
	key := func(p loopPhoto) float64 {
		if p.place == nil {
			return -1
		}
		return p.confidence
	}
	slices.SortStableFunc(queue, func(a, b loopPhoto) int { return cmp.Compare(key(a), key(b)) })
	reviewed = map[string]bool{}
	placed := 0
	for n, p := range queue {
		if n >= len(queue)/5 && placed >= geocode.MinReviews {
			break
		}
		reviewed[p.id] = true
		var body string
		switch {
		case evalset.PlaceVerdict(p.label, p.place, g) == evalset.OK:
			if p.place == nil {
				continue // rightly unplaced: nothing to confirm
			}
			body, confirmed = `{"confirm": true, "note": "review loop: right"}`, confirmed+1
		case p.label.Lat != nil && p.label.Lon != nil:
			body, corrected = fmt.Sprintf(`{"lon": %f, "lat": %f, "note": "review loop: the label's point"}`, *p.label.Lon, *p.label.Lat), corrected+1
		default:
			left++
			continue
		}
		if p.place != nil {
			placed++
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodPut, s.url+"/api/photos/"+p.id+"/placement", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, 0, 0, 0, err
		}
		msg, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, 0, 0, 0, fmt.Errorf("PUT /api/photos/%s/placement: %s: %s", p.id, resp.Status, msg)
		}
	}
	return reviewed, confirmed, corrected, left, nil
}

// scoreUnreviewed scores the photos not in reviewed.
func scoreUnreviewed(photos []loopPhoto, reviewed map[string]bool, g *gazetteer.Gazetteer) loopScore {
	var s loopScore
	placed := 0
	for _, p := range photos {
		if reviewed[p.id] {
			continue
		}
		s.n++
		if p.place != nil {
			placed++
			s.confidence += p.confidence
		}
		right := evalset.PlaceVerdict(p.label, p.place, g) == evalset.OK
		if right {
			s.right++
		}
		if p.place != nil && p.confidence >= 0.8 {
			s.sure++
			if right {
				s.sureRight++
			}
		}
	}
	s.confidence /= float64(max(1, placed))
	return s
}

func httpGet(ctx context.Context, u string) ([]byte, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %s: %s", u, resp.Status, b)
	}
	return b, err
}

func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	return out
}
