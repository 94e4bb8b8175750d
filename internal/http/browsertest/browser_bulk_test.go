package browsertest

import (
	"context"
	"database/sql"
	"fmt"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestBrowserBulkReviewLeavesWhatItCannotDecide (issue 41, defects 1 and
// 2): a group is never two names of the gazetteer — "in Sher, Syria" (a
// village in Hama) is not in the group of the Aleppo quarter Sha'aar,
// though the gazetteer's folding reads them alike — and "apply to all"
// from a sure answer leaves the answers the geocoder was less sure of for
// a person, saying so; the page it goes on to is a photo still to check,
// never one the batch just confirmed.
func TestBrowserBulkReviewLeavesWhatItCannotDecide(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	var lines []string
	for i, name := range []string{"Sha'aar", "Shaar", "Sha'aar", "Shaar"} {
		lines = append(lines, fmt.Sprintf("Smoke rises over the %s district of Aleppo, Syria, May %d, 2016. (Photo by A. Person/Reuters)", name, i+1))
	}
	lines = append(lines, "Men rest in Sher, Syria, May 9, 2016. (Photo by A. Person/Reuters)")
	path := filepath.Join(t.TempDir(), "alike.txt")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	shaar, err := e.a.Photos(ctx, photo.Filter{PlaceIDs: []string{"ocha:N0156"}})
	if err != nil || len(shaar) != 4 {
		t.Fatalf("the Sha'aar photos: %d, %v", len(shaar), err)
	}
	sher := e.photoID(t, "?q=Sher+rest")
	// One of them the geocoder was less sure of: it heads the group.
	unsure := shaar[0].ID
	raw, err := sql.Open("sqlite", "file:"+e.a.Path())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE photos SET confidence = 0.31 WHERE id = ?`, unsure); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	var groupCount, flash, landed, landedState string
	b.run(t, chromedp.Navigate(e.ts.URL+"/review/photos/"+shaar[1].ID+"?group="+strings.ReplaceAll("Sha'aar", "'", "%27")),
		chromedp.WaitVisible(`[data-testid=apply-all]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=position]`, &groupCount, chromedp.ByQuery),
		chromedp.Click(`[data-testid=apply-all]`, chromedp.ByQuery),
		leave(), chromedp.Click(`[data-testid=confirm]`, chromedp.ByQuery))
	b.run(t, arrived(), chromedp.WaitVisible(`[data-testid=flash]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=flash]`, &flash, chromedp.ByQuery),
		eval(`location.pathname`, &landed),
		eval(`document.querySelector("[data-testid=placement]")?.innerText || ""`, &landedState))
	if !strings.HasSuffix(groupCount, "of 4") {
		t.Errorf("the Sha'aar group holds %q: Sher must not be in it", groupCount)
	}
	if !strings.Contains(flash, "3 photos confirmed") || !strings.Contains(flash, "1 photo left for you: the geocoder was less sure of it") {
		t.Errorf("the flash after apply to all: %q", flash)
	}
	if landed != "/review/photos/"+unsure {
		t.Errorf("after the batch the review went on to %s, want the photo it left, %s", landed, unsure)
	}
	for _, q := range shaar {
		p, _ := e.a.Photo(ctx, q.ID)
		if want := q.ID != unsure; (p.Review == photo.ReviewConfirmed) != want {
			t.Errorf("%s: review %s (the unsure one is %s)", q.ID, p.Review, unsure)
		}
	}
	e.unchanged(t, sher, "confirming the Sha'aar group")
	b.check(t)
}

// TestBrowserArabicIPTCAgrees (issue 41, defect 4): a file whose IPTC city
// and country are written in Arabic ("حلب", "سوريا"), its GPS 1 km from
// the caption's Aleppo, agrees with its caption — on its page, and in
// the queue, which it does not head as a disagreement.
func TestBrowserArabicIPTCAgrees(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	a, _ := httpapitest.ImageArchive(t)
	ts, _ := serveArchive(t, a, httpapi.Options{})
	props := featureWith(t, ts, "Boys play football in a street of Aleppo")
	if props["agreement"] != photo.AgreementAgrees {
		t.Errorf("the Arabic IPTC file: agreement %v (%v)", props["agreement"], props["agreement_note"])
	}
	_, body := get(t, ts, "/api/photos.geojson?agreement=disagrees")
	for _, f := range features(t, body).Features {
		if strings.HasPrefix(f.Properties["caption"].(string), "Boys play football") {
			t.Error("the Arabic IPTC file is listed among the disagreements")
		}
	}
	b := newBrowser(t, ts, 1440, 900)
	var shown string
	b.run(t, chromedp.Navigate(props["url"].(string)),
		chromedp.WaitVisible(`[data-testid=agreement]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=agreement]`, &shown, chromedp.ByQuery))
	if !strings.Contains(shown, "they agree") || strings.Contains(shown, "سوريا") {
		t.Errorf("the photo page's check reads %q", shown)
	}
	b.check(t)
	// On the Arabic page the check is said in Arabic, the place by its
	// Arabic name (issue 41, defect 13: it was the stored English note).
	_, raw := get(t, ts, strings.TrimPrefix(props["url"].(string), ts.URL)+"?lang=ar")
	page := string(raw)
	if !strings.Contains(page, `data-testid="agreement-note"`) || !strings.Contains(page, "وهي متّفقة") ||
		!strings.Contains(page, "يذكر التعليق \u2068حلب\u2069") || strings.Contains(page, "they agree") {
		i := strings.Index(page, `data-testid="agreement"`)
		t.Errorf("the Arabic photo page's check: %.600s", page[max(i, 0):])
	}
}

// TestBrowserArabicHistory (issue 41, defect 13, part): on the Arabic
// photo page the history names places in Arabic where the gazetteer has
// the name, writes points longitude first as every page does, and says
// the store's own note of an undo in Arabic.
func TestBrowserArabicHistory(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	zamalka := e.photoID(t, "?place=ocha:C2320")
	aleppo, err := e.a.PlaceOf("gn:170063", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, batch, err := e.a.ApplyBatch(ctx, []string{zamalka}, photo.Change{Author: "rana", Note: "checked", Place: &aleppo})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.Undo(ctx, batch, "rana", ""); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e.ts, 1440, 900)
	var rows []string
	b.run(t, chromedp.Navigate(e.ts.URL+"/photos/"+zamalka+"?lang=ar"),
		chromedp.WaitVisible(`[data-testid=history]`, chromedp.ByQuery),
		eval(`[...document.querySelectorAll("[data-testid=event]")].map((r) => r.innerText.replace(/[\u2066-\u2069]/g, "").replace(/\s+/g, " "))`, &rows))
	all := strings.Join(rows, " | ")
	if len(rows) != 2 || !strings.Contains(all, "حلب (٣٧٫") || strings.Contains(all, "Aleppo") || strings.Contains(all, "undoes") ||
		!strings.Contains(all, "تراجعٌ عن التغيير") || !strings.Contains(all, "زملكا") {
		t.Errorf("the Arabic history reads %q", rows)
	}
	b.check(t)
}

// TestBrowserBulkReviewConfirmsOnlyNamedPlaces (issue 54, defect 1):
// "apply to all" never confirms a photo at a place its caption does not
// name — four captions naming Mas‘adah and Al Masaddah, all read as the
// town of Mashhad at 0.08, confirm only the photo decided on, and the
// message says why the others were left; Al Masaddah is not in the
// Mas‘adah group. Under the low line, "apply to all" for captions that do
// name the place asks again with the list of the photos, and confirms
// nothing until the editor says so.
func TestBrowserBulkReviewConfirmsOnlyNamedPlaces(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	lines := []string{
		"Smoke rises over Mas‘adah, Syria, May 1, 2016. (Photo by A. Person/Reuters)",
		"Men stand in Mas‘adah, Syria, May 2, 2016. (Photo by A. Person/Reuters)",
		"A boy in Al Masaddah, Syria, May 3, 2016. (Photo by A. Person/Reuters)",
		"Women walk in Mas‘adah, Syria, May 4, 2016. (Photo by A. Person/Reuters)",
		"Rubble in the town of Mashhad, Aleppo province, May 5, 2016. (Photo by A. Person/Reuters)",
		"Children in the town of Mashhad, Aleppo province, May 6, 2016. (Photo by A. Person/Reuters)",
		"A market in the town of Mashhad, Aleppo province, May 7, 2016. (Photo by A. Person/Reuters)",
	}
	path := filepath.Join(t.TempDir(), "masadah.txt")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	every, err := e.a.Photos(ctx, photo.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var all []photo.Photo
	for _, p := range every {
		if slices.Contains(lines, p.Caption) {
			all = append(all, p)
		}
	}
	if len(all) != len(lines) {
		t.Fatalf("the photos: %d of %d", len(all), len(lines))
	}
	// As the archive of the defect had them: every one read as the town
	// of Mashhad, unsure, by the words its caption gives.
	mashhad := e.a.Gazetteer().ByID("ocha:C6764")
	raw, err := sql.Open("sqlite", "file:"+e.a.Path())
	if err != nil {
		t.Fatal(err)
	}
	byCaption := map[string]string{}
	for _, p := range all {
		byCaption[p.Caption] = p.ID
		mention, conf := "Mashhad", 0.3
		for _, m := range []string{"Mas‘adah", "Al Masaddah"} {
			if strings.Contains(p.Caption, m) {
				mention, conf = m, 0.08
			}
		}
		if _, err := raw.Exec(`UPDATE photos SET place_id = ?, place_name = ?, place_kind = 'town', lon = ?, lat = ?, precision = 'exact',
			confidence = ?, mention = ?, mention_key = ? WHERE id = ?`, mashhad.ID, mashhad.Name, mashhad.Point.Lon(), mashhad.Point.Lat(),
			conf, mention, archive.MentionKey(mention), p.ID); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	first := byCaption[lines[0]]
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	var groupCount, flash string
	var alternatives []string
	b.run(t, chromedp.Navigate(e.ts.URL+"/review/photos/"+first+"?group="+url.QueryEscape("Mas‘adah")),
		chromedp.WaitVisible(`[data-testid=apply-all]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=position]`, &groupCount, chromedp.ByQuery),
		eval(`[...document.querySelectorAll("[data-testid=alternative]")].map((a) => a.innerText.replace(/\s+/g, " "))`, &alternatives),
		chromedp.Click(`[data-testid=apply-all]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=confirm]`, chromedp.ByQuery))
	b.run(t, chromedp.WaitVisible(`[data-testid=flash]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=flash]`, &flash, chromedp.ByQuery))
	if !strings.HasSuffix(groupCount, "of 3") {
		t.Errorf("the Mas‘adah group holds %q: Al Masaddah must not be in it", groupCount)
	}
	// The readings of one name are told apart by their governorates.
	if len(alternatives) == 0 || !strings.Contains(alternatives[0], ", ") {
		t.Errorf("the alternatives say no governorate: %q", alternatives)
	}
	shoot(t, b, "review-bulk-refusal.png")
	if !strings.Contains(flash, "1 photo confirmed") || !strings.Contains(flash, "2 photos left for you: their captions do not name this place") {
		t.Errorf("the flash after apply to all: %q", flash)
	}
	for _, p := range all {
		got, _ := e.a.Photo(ctx, p.ID)
		if want := p.ID == first; (got.Review == photo.ReviewConfirmed) != want {
			t.Errorf("%q: review %q after apply to all from the first Mas‘adah photo", p.Caption, got.Review)
		}
	}
	// The Mashhad captions name Mashhad, but the geocoder was unsure:
	// the list first, then the decision.
	mashhadFirst := byCaption[lines[4]]
	var listed []string
	b.run(t, chromedp.Navigate(e.ts.URL+"/review/photos/"+mashhadFirst+"?group=Mashhad"),
		chromedp.WaitVisible(`[data-testid=apply-all]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=apply-all]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=confirm]`, chromedp.ByQuery))
	b.run(t, chromedp.WaitVisible(`[data-testid=confirm-all-list]`, chromedp.ByQuery),
		eval(`[...document.querySelectorAll("[data-testid=confirm-all-list] li")].map((li) => li.innerText)`, &listed))
	shoot(t, b, "review-confirm-all-step.png")
	if axe := axeScript(t); axe != "" {
		for _, v := range axeHere(t, b, axe) {
			t.Errorf("the second step of apply to all: %s", v)
		}
	}
	if len(listed) != 3 || !strings.Contains(strings.Join(listed, "|"), "A market in the town of Mashhad") {
		t.Errorf("the second step lists %q, want the three Mashhad captions", listed)
	}
	for _, id := range []string{byCaption[lines[4]], byCaption[lines[5]], byCaption[lines[6]]} {
		if got, _ := e.a.Photo(ctx, id); got.Review == photo.ReviewConfirmed {
			t.Errorf("%s was confirmed before the editor confirmed the list", id)
		}
	}
	b.run(t, chromedp.Click(`[data-testid=confirm-all-sure]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=flash]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=flash]`, &flash, chromedp.ByQuery))
	if !strings.Contains(flash, "3 photos confirmed") {
		t.Errorf("the flash after the second step: %q", flash)
	}
	for _, id := range []string{byCaption[lines[4]], byCaption[lines[5]], byCaption[lines[6]]} {
		if got, _ := e.a.Photo(ctx, id); got.Review != photo.ReviewConfirmed {
			t.Errorf("%s: review %q after the second step", id, got.Review)
		}
	}
	b.check(t)
}

// TestBrowserAddPlaceSaysWhatItDid (issue 54, defect 6): an editor adds
// the camp three captions of a group name; the page says what was added
// and how many more of the group's captions name it, and places them
// there on the editor's word, without a regeocode.
func TestBrowserAddPlaceSaysWhatItDid(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	var lines []string
	for i, what := range []string{"Children walk", "Women queue for water", "A boy sits"} {
		lines = append(lines, fmt.Sprintf("%s in the Qutaybat al-Ward camp, Idlib province, Syria, March %d, 2017. (Photo by A. Person/Reuters)", what, i+1))
	}
	path := filepath.Join(t.TempDir(), "camp.txt")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	ids, err := e.a.ReviewIDs(ctx, photo.Filter{}, "Qutaybat al-Ward")
	if err != nil || len(ids) != 3 {
		t.Fatalf("the camp's group: %v %v", ids, err)
	}
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	var flash, after string
	b.run(t, chromedp.Navigate(e.ts.URL+"/review/photos/"+ids[0]+"?group="+url.QueryEscape("Qutaybat al-Ward")),
		chromedp.WaitVisible(`[data-testid=add-place]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=add-place] summary`, chromedp.ByQuery),
		chromedp.SetValue(`[data-testid=lon]`, "36.5", chromedp.ByQuery),
		chromedp.SetValue(`[data-testid=lat]`, "36.1", chromedp.ByQuery),
		chromedp.SetValue(`[data-testid=new-name]`, "Qutaybat al-Ward camp", chromedp.ByQuery),
		chromedp.SetValue(`[data-testid=new-kind]`, "camp", chromedp.ByQuery),
		chromedp.SetValue(`[data-testid=new-source]`, "https://example.org/camps/qutaybat-al-ward", chromedp.ByQuery),
		chromedp.Click(`[data-testid=save-new-place]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=flash]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=flash]`, &flash, chromedp.ByQuery))
	if !strings.Contains(flash, "Added Qutaybat al-Ward camp") || !strings.Contains(flash, "2 more captions of this group name it") {
		t.Errorf("the flash after adding the camp: %q", flash)
	}
	b.run(t, leave(), chromedp.Click(`[data-testid=place-named]`, chromedp.ByQuery), arrived(),
		chromedp.WaitVisible(`[data-testid=flash]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=flash]`, &after, chromedp.ByQuery))
	if !strings.Contains(after, "2 photos placed") {
		t.Errorf("the flash after placing the others: %q", after)
	}
	for _, id := range ids {
		p, _ := e.a.Photo(ctx, id)
		if p.Place.Name != "Qutaybat al-Ward camp" || p.Review != photo.ReviewCorrected {
			t.Errorf("%s: at %q (%s), review %q", id, p.Place.Name, p.Place.ID, p.Review)
		}
	}
	b.check(t)
}
