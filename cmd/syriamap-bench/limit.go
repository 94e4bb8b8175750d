package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"time"
)

// The static limit: a Go server that answers every request with one
// body from memory (the bytes syriamap sends for the repeated window,
// gzip and all), doing nothing else. No server of these windows can be
// faster on this machine with this HTTP stack; a share of its requests
// per second says how close syriamap comes.

// limitServer is the static limit, in the bench's own process.
type limitServer struct {
	url string
	srv *http.Server
}

// startLimit serves body with the headers of the answer it was copied
// from.
func startLimit(body []byte, contentType, contentEncoding string) (*limitServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	length := strconv.Itoa(len(body))
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", contentType)
		if contentEncoding != "" {
			h.Set("Content-Encoding", contentEncoding)
		}
		h.Set("Content-Length", length)
		w.Write(body)
	})}
	go srv.Serve(ln)
	return &limitServer{url: "http://" + ln.Addr().String(), srv: srv}, nil
}

func (l *limitServer) close() { l.srv.Close() }

// rawBody fetches u with gzip asked for and returns the bytes as sent.
func rawBody(ctx context.Context, u string) (body []byte, contentType, contentEncoding string, err error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return nil, "", "", err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return body, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Encoding"), err
}

var metricRe = regexp.MustCompile(`(?m)^syriamap_response_cache_(hits|misses)_total (\d+)$`)

// cacheCounts reads the response cache's hits and misses from the
// server's /metrics (zeros when it has none).
func cacheCounts(ctx context.Context, base string) (hits, misses int64) {
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	resp, err := http.DefaultClient.Do(req) // gzip undone
	if err != nil {
		return 0, 0
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, m := range metricRe.FindAllSubmatch(body, -1) {
		n, _ := strconv.ParseInt(string(m[2]), 10, 64)
		if string(m[1]) == "hits" {
			hits = n
		} else {
			misses = n
		}
	}
	return hits, misses
}
