package store

import (
	"context"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/story"
)

// TestVersionsFollowEveryWriter: the versions kept in memory are dropped
// at once when any handle of this process commits a change to the file
// (the server's and a command's), and a change by another process is
// seen within versionTTL.
func TestVersionsFollowEveryWriter(t *testing.T) {
	ctx := context.Background()
	path := archivePath(t, "a.db")
	server, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	command, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer command.Close()
	_, before, err := server.Versions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := story.Story{Slug: "s", Title: "S", Status: story.Published, Steps: []story.Step{{Heading: "One"}}}
	if _, err := command.SaveStory(ctx, st, "", "rana", ""); err != nil {
		t.Fatal(err)
	}
	if _, after, _ := server.Versions(ctx); after != before+1 {
		t.Fatalf("after another handle saved a story: changes %d, want %d", after, before+1)
	}
	// Another process: a connection of its own, no handle of this package.
	if _, err := rawArchive(t, path).Exec(`UPDATE archive_version SET changes = changes + 1`); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(versionTTL + 2*time.Second)
	for {
		if _, now, _ := server.Versions(ctx); now == before+2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("another process's change not seen after %v", versionTTL+2*time.Second)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
