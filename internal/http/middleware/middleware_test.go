package middleware

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// TestCompressorsAreBounded: however many responses run at once, at most
// cap(compressors) are gzipped (each compressor holds about 1 MB); the
// others go uncompressed after a short wait, whole. A handler that
// panics gives its slot back.
func TestCompressorsAreBounded(t *testing.T) {
	n := cap(compressors) + 4
	hold := make(chan struct{})
	var started sync.WaitGroup
	started.Add(n)
	h := Compress(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Query().Get("panic") != "" {
			io.WriteString(w, "half a page")
			panic(http.ErrAbortHandler)
		}
		io.WriteString(w, strings.Repeat("a page of text ", 100))
		if r.URL.Query().Get("hold") != "" {
			started.Done()
			<-hold
		}
	}))
	ts := httptest.NewServer(h)
	defer ts.Close()
	get := func(query string) (encoding string, body string, err error) {
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/?"+query, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			return "", "", err
		}
		defer resp.Body.Close()
		var r io.Reader = resp.Body
		if resp.Header.Get("Content-Encoding") == "gzip" {
			if r, err = gzip.NewReader(resp.Body); err != nil {
				return "", "", err
			}
		}
		b, err := io.ReadAll(r)
		return resp.Header.Get("Content-Encoding"), string(b), err
	}
	var mu sync.Mutex
	gzipped, whole := 0, 0
	var done sync.WaitGroup
	for range n {
		done.Add(1)
		go func() {
			defer done.Done()
			enc, body, err := get("hold=1")
			mu.Lock()
			defer mu.Unlock()
			if err == nil && len(body) == 1500 {
				whole++
			}
			if enc == "gzip" {
				gzipped++
			}
		}()
	}
	started.Wait()
	close(hold)
	done.Wait()
	if whole != n || gzipped > cap(compressors) || gzipped == 0 {
		t.Fatalf("%d responses at once: %d whole, %d gzipped; want all whole and at most %d gzipped", n, whole, gzipped, cap(compressors))
	}
	for range 3 {
		get("panic=1") // aborted: no trailer, but its slot comes back
	}
	if len(compressors) != 0 {
		t.Fatalf("%d compressor slots still taken after every response ended", len(compressors))
	}
	if enc, _, _ := get(""); enc != "gzip" {
		t.Errorf("after the rush a response is %q, want gzip", enc)
	}
}

// TestReplica: a named server names itself in every answer; an unnamed
// one sends no such header.
func TestReplica(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	for name, want := range map[string]string{"b": "b", "": ""} {
		rec := httptest.NewRecorder()
		Replica(ok, name).ServeHTTP(rec, httptest.NewRequest("GET", "/about", nil))
		if got, sent := rec.Header()[ReplicaHeader]; (want == "") == sent || rec.Header().Get(ReplicaHeader) != want {
			t.Errorf("a server named %q sends %s: %q", name, ReplicaHeader, got)
		}
	}
}
