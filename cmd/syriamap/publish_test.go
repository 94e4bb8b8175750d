package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/agreement"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// TestPublishCommand publishes the samples, a selection of them, and
// refuses bad flags with the API's messages.
func TestPublishCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "geodata", "samples", "*.txt"))
	if _, _, err := runCmd(t, "", append([]string{"import", "--db", db}, seeds...)...); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(dir, "site")
	out, _, err := runCmd(t, "", "publish", "--db", db, "--title", "Samples", site)
	if err != nil || !strings.Contains(out, "published 15 photos (15 on the map)") {
		t.Fatalf("publish: %q, %v", out, err)
	}
	index, err := os.ReadFile(filepath.Join(site, "index.html"))
	if err != nil || !strings.Contains(string(index), "<title>Samples · syriamap</title>") {
		t.Errorf("index.html: %v", err)
	}
	out, _, err = runCmd(t, "", "publish", "--db", db, "--from", "2016", "--to", "2016", "--agency", "Reuters", "--agency", "AFP", site)
	if err != nil || !strings.Contains(out, "removed") || strings.Contains(out, "published 15 ") {
		t.Errorf("publish a selection into the same folder: %q, %v", out, err)
	}
	// --points-limit: a site of 15 photos drawn from its tiles, as a
	// site above 200,000 is (the README's way to try a large site's map).
	small := filepath.Join(dir, "tiled")
	if _, _, err := runCmd(t, "", "publish", "--db", db, "--points-limit", "5", small); err != nil {
		t.Fatal(err)
	}
	if m, err := os.ReadFile(filepath.Join(small, "site.json")); err != nil || !strings.Contains(string(m), `"points_limit": 5`) {
		t.Errorf("publish --points-limit 5: site.json %.200s, %v", m, err)
	}
	// --verified: only what a second editor confirmed blind.
	verifyOne(t, db)
	out, _, err = runCmd(t, "", "publish", "--db", db, "--verified", site)
	if err != nil || !strings.Contains(out, "published 1 photos") {
		t.Errorf("publish --verified: %q, %v", out, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", "2016-13"}, "from"},
		{[]string{"--min-confidence", "2"}, "min-confidence"},
		{[]string{"--points-limit", "0"}, "points-limit"},
		{nil, "publish needs one folder"},
	} {
		args := append(append([]string{"publish", "--db", db}, c.args...), site)
		if c.args == nil {
			args = []string{"publish", "--db", db}
		}
		_, _, err := runCmd(t, "", args...)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("publish %v: %v; want a usage error naming %q", c.args, err, c.want)
		}
	}
}

// verifyOne has two editors place one photo of the archive at db alike,
// the second without seeing the first's answer.
func verifyOne(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	photos, err := db.Photos(ctx, photo.Filter{Limit: 1})
	if err != nil || len(photos) == 0 {
		t.Fatal(err)
	}
	ids := []string{photos[0].ID}
	if err := db.SetTwoPerson(ctx, true, "rana"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Apply(ctx, ids[:1], photo.Change{Confirm: true, Author: "rana"}); err != nil {
		t.Fatal(err)
	}
	looks, err := db.LookRounds(ctx, store.LookWaiting, "", "", 10)
	if err != nil || len(looks) != 1 {
		t.Fatalf("looks: %v, %v", looks, err)
	}
	first := looks[0].First
	if _, err := db.AnswerLook(ctx, looks[0].ID, store.LookAnswer{By: "omar", Decision: agreement.Confirm, PlaceID: first.PlaceID,
		Lon: first.Lon, Lat: first.Lat, Located: true}, agreement.Judgement{SamePlace: true, WithinSize: true, Agreed: true}); err != nil {
		t.Fatal(err)
	}
}
