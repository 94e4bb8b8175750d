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

// serveForTest starts the server as "syriamap" with args would, reads the
// URL it prints and returns it with a function that stops the server the
// way Ctrl-C does (the context main cancels on SIGINT/SIGTERM) and fails
// the test if it does not stop cleanly.
func serveForTest(t *testing.T, args ...string) (url string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"--addr", "127.0.0.1:0", "--quiet"}, args...), nil, outW, io.Discard)
		outW.Close()
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("no start-up line: %v (server returned %v)", err, <-done)
	}
	url = regexp.MustCompile(`http://\S+/`).FindString(line)
	if url == "" {
		cancel()
		t.Fatalf("start-up line has no URL: %q", line)
	}
	go io.Copy(io.Discard, outR)
	return url, func() {
		t.Helper()
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
}

func getBody(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Errorf("%s: %s", url, res.Status)
	}
	return string(b)
}

// TestServe starts the server as "syriamap" alone would, asks it for
// health and the sample photos, and stops it.
func TestServe(t *testing.T) {
	t.Setenv("SYRIAMAP_DB", filepath.Join(t.TempDir(), "serve.db"))
	url, stop := serveForTest(t)
	defer stop()
	getBody(t, url+"healthz")
	var fc struct{ Features []json.RawMessage }
	err := json.Unmarshal([]byte(getBody(t, url+"api/photos.geojson")), &fc)
	if err != nil || len(fc.Features) == 0 {
		t.Errorf("a first run serves the sample photos: %d features, %v", len(fc.Features), err)
	}
}
