package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// TestServe starts the server as "syriamap" alone would, reads the URL it
// prints, asks it for health and the sample photos, and stops it the way
// Ctrl-C does (the context main cancels on SIGINT/SIGTERM).
func TestServe(t *testing.T) {
	t.Setenv("SYRIAMAP_DB", filepath.Join(t.TempDir(), "serve.db"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--quiet"}, nil, outW, io.Discard)
		outW.Close()
	}()

	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("no start-up line: %v (server returned %v)", err, <-done)
	}
	url := regexp.MustCompile(`http://\S+/`).FindString(line)
	if url == "" {
		t.Fatalf("start-up line has no URL: %q", line)
	}
	go io.Copy(io.Discard, outR)

	res, err := http.Get(url + "healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("/healthz: %s", res.Status)
	}
	res, err = http.Get(url + "api/photos.geojson")
	if err != nil {
		t.Fatal(err)
	}
	var fc struct{ Features []json.RawMessage }
	err = json.NewDecoder(res.Body).Decode(&fc)
	res.Body.Close()
	if err != nil || len(fc.Features) == 0 {
		t.Errorf("a first run serves the sample photos: %d features, %v", len(fc.Features), err)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("shutdown: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop when its context was cancelled")
	}
}
