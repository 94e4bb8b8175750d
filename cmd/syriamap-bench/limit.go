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

var metricRe = regexp.MustCompile(`(?m)^syriamap_response_cache_(hits_total|misses_total|bytes) (\d+)$`)

// cacheCounts reads the response cache's hits, misses and bytes held from
// the server's /metrics (zeros when it has none).
func cacheCounts(ctx context.Context, base string) (hits, misses int64) {
	m := cacheMetrics(ctx, base)
	return m["hits_total"], m["misses_total"]
}

func cacheMetrics(ctx context.Context, base string) map[string]int64 {
	out := map[string]int64{}
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	resp, err := http.DefaultClient.Do(req) // gzip undone
	if err != nil {
		return out
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, m := range metricRe.FindAllSubmatch(body, -1) {
		n, _ := strconv.ParseInt(string(m[2]), 10, 64)
		out[string(m[1])] = n
	}
	return out
}

// fillCache asks distinct city windows twice each (the cache keeps an
// answer from its second asking) until the server's response cache holds
// want bytes, or it has asked limit windows; it returns the bytes held.
func fillCache(ctx context.Context, base string, want int64, limit int) int64 {
	client := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 4}}
	defer client.CloseIdleConnections()
	ask := func(u string) {
		req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		if resp, err := client.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	held := int64(0)
	for i := 0; i < limit && ctx.Err() == nil; i++ {
		var b [4]float64
		fmt.Sscanf(peerBoxes[i%len(peerBoxes)], "%g,%g,%g,%g", &b[0], &b[1], &b[2], &b[3])
		d := float64(i/len(peerBoxes)) * 1e-4 // a distinct box each time
		month := fmt.Sprintf("%d-%02d", 2012+i%6, 1+i%12)
		u := fmt.Sprintf("%s/api/photos.geojson?from=%s&to=%s&bbox=%.5f,%.5f,%.5f,%.5f", base, month, month, b[0]+d, b[1]+d, b[2]+d, b[3]+d)
		ask(u)
		ask(u)
		if i%200 == 199 {
			if held = cacheMetrics(ctx, base)["bytes"]; held >= want {
				break
			}
		}
	}
	return held
}
