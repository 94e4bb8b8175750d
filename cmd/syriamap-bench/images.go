package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/evidence/imagemeta"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/gen"
	"github.com/syriamap/syriamap/internal/resize"
)

// runImages measures importing a folder of n agency-like photos (each
// kept as read in the archive's store of originals, beside it), then
// verifying them: JPEGs of
// about 5 MB, each with its own IPTC caption, by-line, credit and city,
// imported with the syriamap binary into a fresh archive, then again
// (nothing changed: nothing read), each timed. The folder is made once
// under dir and kept for later runs.
func runImages(ctx context.Context, syriamap, dir string, n int, stdout, stderr io.Writer) error {
	folder := filepath.Join(dir, fmt.Sprintf("images-%d", n))
	if err := makeImages(folder, n, stderr); err != nil {
		return err
	}
	var total int64
	entries, _ := os.ReadDir(folder)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			total += fi.Size()
		}
	}
	db := filepath.Join(dir, fmt.Sprintf("images-%d.db", n))
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	// A fresh archive's store of originals too: the first import writes
	// every original, as it would the first time.
	os.RemoveAll(filepath.Join(dir, "originals"))
	fmt.Fprintf(stdout, "%d photos, %.1f GB (%.1f MB each)\n", len(entries), float64(total)/1e9, float64(total)/float64(len(entries))/1e6)
	// The first import reads the files from disk when the page cache can
	// be dropped (root on Linux), as a folder copied from a camera card
	// or a drive would be; otherwise from memory, and the table says so.
	cold := dropPageCache() == nil
	fmt.Fprintf(stdout, "page cache dropped before the first import: %v\n", cold)
	var firstTook time.Duration
	var firstRSS float64
	for _, pass := range []string{"first import", "again, unchanged"} {
		start := time.Now()
		cmd := exec.CommandContext(ctx, syriamap, "import", "--db", db, folder)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return commandError("syriamap import", err, out)
		}
		took := time.Since(start)
		if firstTook == 0 {
			firstTook = took
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				firstRSS = float64(ru.Maxrss) / 1024 // KiB on Linux
			}
		}
		fmt.Fprintf(stdout, "%-17s %6.1f s  %7.0f photos/s  %6.0f MB/s   %s", pass, took.Seconds(),
			float64(len(entries))/took.Seconds(), float64(total)/1e6/took.Seconds(), bytes.TrimSpace(firstLine(out)))
		fmt.Fprintln(stdout)
	}
	// The originals the first import kept, re-hashed (issue 42's target:
	// at least 150 MB/s); the page cache holds them now, as it would on
	// an archive's machine that had just imported them.
	out, err := exec.CommandContext(ctx, syriamap, "verify", "--db", db).CombinedOutput()
	if err != nil {
		return commandError("syriamap verify", err, out)
	}
	fmt.Fprintf(stdout, "%s\n", bytes.TrimSpace(firstLine(out)))
	if err := runFramesLater(ctx, syriamap, dir, folder, len(entries), firstTook, stdout); err != nil {
		return err
	}
	// The same folder through the server (issue 58's target: at least 80 %
	// of import's rate, peak RSS no more than import's and the image
	// budget), from the page cache as the server's disk would have it.
	return runUploads(ctx, syriamap, dir, folder, firstTook, firstRSS, stdout)
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

// makeImages writes n JPEGs into folder unless it already holds them:
// one noisy 3,000×1,800 picture (about 5 MB at quality 95, as agency
// pictures are), each copy with an IPTC block of its own.
func makeImages(folder string, n int, stderr io.Writer) error {
	if entries, err := os.ReadDir(folder); err == nil && len(entries) == n {
		return nil
	}
	fmt.Fprintf(stderr, "writing %d JPEGs into %s\n", n, folder)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	img := image.NewRGBA(image.Rect(0, 0, 3000, 1800))
	for y := 0; y < 1800; y++ {
		for x := 0; x < 3000; x++ {
			v := uint8(x/10 + y/10)
			img.Set(x, y, color.RGBA{v + uint8(rng.IntN(90)), v/2 + uint8(rng.IntN(90)), uint8(rng.IntN(120)), 255})
		}
	}
	var base bytes.Buffer
	if err := jpeg.Encode(&base, img, &jpeg.Options{Quality: 95}); err != nil {
		return err
	}
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		return err
	}
	captions := gen.New(g, 7)
	b := base.Bytes()
	for i := 0; i < n; i++ {
		app13 := imagemeta.IIMSegment(map[int][]string{
			120: {captions.Caption()}, 80: {"Staff Photographer"}, 110: {"Reuters"}, 90: {"Aleppo"}, 101: {"Syria"},
		})
		var out bytes.Buffer
		out.Write(b[:2]) // SOI
		out.Write(app13)
		out.Write(b[2:])
		if err := os.WriteFile(filepath.Join(folder, fmt.Sprintf("photo-%05d.jpg", i)), out.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// dropPageCache asks Linux to drop clean cached pages, so that the files
// are read from the disk.
func dropPageCache() error {
	exec.Command("sync").Run()
	return os.WriteFile("/proc/sys/vm/drop_caches", []byte("3\n"), 0o200)
}

// runUploads measures adding the same folder through the server, as an
// editor's browser or script would, over loopback, each way into a fresh
// archive: POST /api/imports, multipart, in batches; and resumable (tus)
// uploads as the upload page sends them, each file on its own, then one
// POST /api/imports naming them all. Each line is the time until every
// import is done, against `import`'s (importTook), and the server's peak
// RSS against `import`'s (importRSS, MiB) plus the image budget.
func runUploads(ctx context.Context, syriamap, dir, folder string, importTook time.Duration, importRSS float64, stdout io.Writer) error {
	entries, err := os.ReadDir(folder)
	if err != nil {
		return err
	}
	for _, way := range []struct {
		name string
		send func(ctx context.Context, base, token string) ([]string, error)
	}{
		{"upload (API)", func(ctx context.Context, base, token string) ([]string, error) {
			return sendMultipart(ctx, base, token, folder, entries)
		}},
		{"upload (tus)", func(ctx context.Context, base, token string) ([]string, error) {
			return sendResumable(ctx, base, token, folder, entries)
		}},
	} {
		took, mem, err := timeUpload(ctx, syriamap, dir, way.send)
		if err != nil {
			return fmt.Errorf("%s: %w", way.name, err)
		}
		fmt.Fprintf(stdout, "%-17s %6.1f s  %7.0f photos/s  %5.0f %% of import's rate;  peak RSS %.0f MiB (import's %.0f MiB + the image budget %d MiB = %.0f MiB)\n",
			way.name, took.Seconds(), float64(len(entries))/took.Seconds(), 100*importTook.Seconds()/took.Seconds(),
			mem.peakRSS, importRSS, resize.DefaultBudget>>20, importRSS+float64(resize.DefaultBudget>>20))
	}
	return nil
}

// timeUpload serves a fresh archive (its originals none yet, as
// import's first pass had none) with an editor's token, sends the
// folder's files by send, which returns the imports' addresses, and
// returns the time until every import is done and the server's memory.
func timeUpload(ctx context.Context, syriamap, dir string, send func(ctx context.Context, base, token string) ([]string, error)) (time.Duration, serverMemory, error) {
	own := filepath.Join(dir, "uploads-bench")
	os.RemoveAll(own)
	if err := os.MkdirAll(own, 0o755); err != nil {
		return 0, serverMemory{}, err
	}
	db := filepath.Join(own, "archive.db")
	cmd := exec.CommandContext(ctx, syriamap, "users", "add", "--db", db, "--password-stdin", "uploader")
	cmd.Stdin = strings.NewReader("an uploader's long password\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, serverMemory{}, commandError("syriamap users add", err, out)
	}
	out, err := exec.CommandContext(ctx, syriamap, "tokens", "create", "--db", db, "uploader").Output()
	if err != nil {
		return 0, serverMemory{}, commandError("syriamap tokens create", err, out)
	}
	token := strings.TrimSpace(string(out))
	srv, err := startServer(ctx, syriamap, db)
	if err != nil {
		return 0, serverMemory{}, err
	}
	defer srv.close()
	start := time.Now()
	jobs, err := send(ctx, srv.url, token)
	if err != nil {
		return 0, serverMemory{}, err
	}
	for _, loc := range jobs {
		if err := waitJob(ctx, srv.url+loc, token); err != nil {
			return 0, serverMemory{}, err
		}
	}
	took := time.Since(start)
	mem, err := srv.memory()
	return took, mem, err
}

// waitJob polls an import's address until it is done.
func waitJob(ctx context.Context, url, token string) error {
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		var job struct{ State string }
		json.NewDecoder(res.Body).Decode(&job)
		res.Body.Close()
		if job.State == "done" {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// uploadStreams is how many requests a sender has in flight (the upload
// page sends its files side by side too).
const uploadStreams = 4

// sendMultipart posts the files in batches of 50, uploadStreams requests
// at a time, and returns the imports' addresses.
func sendMultipart(ctx context.Context, base, token, folder string, entries []os.DirEntry) ([]string, error) {
	const batch = 50
	var batches [][]os.DirEntry
	for i := 0; i < len(entries); i += batch {
		batches = append(batches, entries[i:min(i+batch, len(entries))])
	}
	jobs := make([]string, len(batches))
	err := eachAtOnce(len(batches), uploadStreams, func(i int) error {
		loc, err := postFiles(ctx, base, token, folder, batches[i])
		jobs[i] = loc
		return err
	})
	return jobs, err
}

// eachAtOnce runs do(0) … do(n-1), at most streams at a time, and
// returns the first error.
func eachAtOnce(n, streams int, do func(i int) error) error {
	errs := make(chan error, n)
	sem := make(chan struct{}, streams)
	for i := range n {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			errs <- do(i)
		}()
	}
	var first error
	for range n {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// sendResumable sends the files as the upload page does: each a tus
// upload (created, then its bytes in chunks of 8 MB), uploadStreams at a
// time; then one POST /api/imports naming them all. It returns the
// import's address.
func sendResumable(ctx context.Context, base, token, folder string, entries []os.DirEntry) ([]string, error) {
	ids := make([]string, len(entries))
	err := eachAtOnce(len(entries), uploadStreams, func(i int) error {
		id, err := tusUpload(ctx, base, token, filepath.Join(folder, entries[i].Name()))
		ids[i] = id
		return err
	})
	if err != nil {
		return nil, err
	}
	body, _ := json.Marshal(map[string][]string{"uploads": ids})
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/imports", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		b, _ := io.ReadAll(res.Body)
		return nil, fmt.Errorf("POST /api/imports: %s %s", res.Status, b)
	}
	return []string{res.Header.Get("Location")}, nil
}

// tusUpload sends one file as a tus 1.0 upload and returns its id.
func tusUpload(ctx context.Context, base, token, path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	do := func(method, url string, body io.Reader, size int64, header ...string) (*http.Response, error) {
		req, _ := http.NewRequestWithContext(ctx, method, url, body)
		req.ContentLength = size
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Tus-Resumable", "1.0.0")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res, nil
	}
	name := base64.StdEncoding.EncodeToString([]byte(filepath.Base(path)))
	res, err := do("POST", base+"/api/uploads/", nil, 0, "Upload-Length", strconv.FormatInt(st.Size(), 10), "Upload-Metadata", "filename "+name)
	if err != nil {
		return "", err
	}
	if res.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("POST /api/uploads/: %s", res.Status)
	}
	loc := res.Header.Get("Location")
	url := loc
	if strings.HasPrefix(loc, "/") {
		url = base + loc
	}
	const chunk = 8 << 20
	for off := int64(0); off < st.Size(); off += chunk {
		n := min(chunk, st.Size()-off)
		res, err := do("PATCH", url, io.NewSectionReader(f, off, n), n,
			"Upload-Offset", strconv.FormatInt(off, 10), "Content-Type", "application/offset+octet-stream")
		if err != nil {
			return "", err
		}
		if res.StatusCode != http.StatusNoContent {
			return "", fmt.Errorf("PATCH %s: %s", loc, res.Status)
		}
	}
	return loc[strings.LastIndex(loc, "/")+1:], nil
}

// postFiles sends files as one multipart POST /api/imports, streamed
// (never held whole), and returns the import's address.
func postFiles(ctx context.Context, base, token, folder string, files []os.DirEntry) (string, error) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		for _, f := range files {
			w, err := mw.CreateFormFile("files", f.Name())
			if err == nil {
				var in *os.File
				if in, err = os.Open(filepath.Join(folder, f.Name())); err == nil {
					_, err = io.Copy(w, in)
					in.Close()
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(mw.Close())
	}()
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/imports", pr)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		b, _ := io.ReadAll(res.Body)
		return "", fmt.Errorf("POST /api/imports: %s %s", res.Status, b)
	}
	return res.Header.Get("Location"), nil
}

// runFramesLater imports the folder again into a fresh archive with
// --frames-later, which hashes no frame as it arrives (issue 57's target:
// an import with the frame lookup within 10 % of one without), and says
// what hashing each picture on arrival cost the first import.
func runFramesLater(ctx context.Context, syriamap, dir, folder string, n int, withFrames time.Duration, stdout io.Writer) error {
	later := filepath.Join(dir, "frames-later")
	os.RemoveAll(later)
	if err := os.MkdirAll(later, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(later)
	cold := dropPageCache() == nil
	start := time.Now()
	if out, err := exec.CommandContext(ctx, syriamap, "import", "--frames-later", "--db", filepath.Join(later, "a.db"), folder).CombinedOutput(); err != nil {
		return commandError("syriamap import --frames-later", err, out)
	}
	took := time.Since(start)
	fmt.Fprintf(stdout, "%-17s %6.1f s  %7.0f photos/s  (page cache dropped: %v)\n", "--frames-later", took.Seconds(), float64(n)/took.Seconds(), cold)
	fmt.Fprintf(stdout, "frames hashed on arrival: the first import took %.0f %% of --frames-later's time (target: within 115 %%)\n",
		100*withFrames.Seconds()/took.Seconds())
	entries, err := os.ReadDir(folder)
	if err != nil || len(entries) == 0 {
		return err
	}
	return hashShare(filepath.Join(folder, entries[0].Name()), took/time.Duration(n), stdout)
}
