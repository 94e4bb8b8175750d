package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A measure is one row of the table. The rows are fixed: every run prints
// the same ones in the same order, so two runs can be read side by side.
type measure struct {
	key, label, unit string
	// perSize: measured once per archive size (else once per run).
	perSize bool
	target  *target
}

// A target is the figure an issue set for a measure.
type target struct {
	atLeast bool // the value must be ≥ limit (else < limit)
	limit   float64
	// The archive sizes it applies to: [minSize, maxSize]; 0 leaves a side open.
	minSize, maxSize int
	text             string
}

func (t *target) appliesTo(size int) bool {
	return (t.minSize == 0 || size >= t.minSize) && (t.maxSize == 0 || size <= t.maxSize)
}

func (t *target) met(v float64) bool {
	if t.atLeast {
		return v >= t.limit
	}
	return v < t.limit
}

// measures lists the table's rows; the targets are those of issues 2–5.
var measures = []measure{
	{"geocode.captions_per_s_core", "geocoding: reader + geocoder (Go benchmark, one core, median of 3)", "captions/s/core", false,
		&target{atLeast: true, limit: 100_000, text: "≥ 100,000"}},
	{"import.seconds", "import: generated captions into a fresh archive", "s", true,
		&target{limit: 60, minSize: 1_000_000, maxSize: 1_000_000, text: "< 60 at 1M"}},
	{"import.captions_per_s", "import: rate", "captions/s", true, nil},
	{"import.db_mb", "archive on disk", "MB", true, nil},
	{"api.window_p50_ms", "API: one month + bbox GeoJSON, p50", "ms", true, &target{limit: 20, text: "< 20"}},
	{"api.window_p99_ms", "API: one month + bbox GeoJSON, p99", "ms", true, nil},
	{"api.window_features", "API: one month + bbox GeoJSON, features", "per response", true, nil},
	{"api.full_ms", "API: full /api/photos.geojson", "ms", true, &target{limit: 300, maxSize: 100_000, text: "< 300 up to 100k"}},
	{"api.full_mb", "API: full /api/photos.geojson, size", "MB", true, nil},
	{"api.full_gzip_ms", "API: full /api/photos.geojson, gzip", "ms", true, &target{limit: 300, maxSize: 100_000, text: "< 300 up to 100k"}},
	{"api.full_gzip_mb", "API: full /api/photos.geojson, gzip size", "MB", true, nil},
	{"api.timeline_ms", "API: /api/timeline (monthly, whole archive)", "ms", true, &target{limit: 100, text: "< 100"}},
	{"load.rps", "load: wrk, 16 connections, month + bbox windows", "requests/s", true, nil},
	{"load.p99_ms", "load: wrk p99", "ms", true, nil},
	{"load.errors", "load: wrk errors (connect, read, write, timeout, non-2xx)", "requests", true, &target{limit: 1, text: "0"}},
	{"cache.hit_pct", "response cache: answers to readers it gave over the size's run (windows asked again)", "%", true, nil},
	{"stall.healthz_p99_ms", "stall: /healthz p99 while 8 slow readers and 8 heavy searches run", "ms", true,
		&target{limit: 100, text: "< 100"}},
	{"stall.window_p99_ms", "stall: one month + bbox GeoJSON p99, meanwhile", "ms", true, &target{limit: 200, text: "< 200"}},
	{"stall.probe_errors", "stall: probes that failed or timed out (30 s)", "requests", true, &target{limit: 1, text: "0"}},
	{"memory.peak_rss_mib", "server peak RSS (VmHWM: archive pages once per connection's map)", "MiB", true, nil},
	{"memory.peak_pss_mib", "server peak PSS (archive pages counted once, sampled)", "MiB", true, nil},
	{"memory.peak_private_mib", "server peak private memory (RssAnon, sampled)", "MiB", true, nil},
	{"browser.first_clusters_ms", "browser: navigation to first clusters drawn", "ms", true, &target{limit: 1000, maxSize: 100_000, text: "< 1000 up to 100k"}},
	{"browser.step_p50_ms", "browser: timeline step, key press to redrawn, p50", "ms", true, &target{limit: 100, maxSize: 100_000, text: "< 100 up to 100k"}},
	{"browser.step_p99_ms", "browser: timeline step, key press to redrawn, p99", "ms", true, nil},
	{"story.step_p50_ms", "story: a step of a 50-step story, key to map and timeline settled (reduced motion), p50", "ms", true, nil},
	{"story.step_p99_ms", "story: the same, p99", "ms", true, &target{limit: 150.001, text: "≤ 150"}},
	{"publish.seconds", "publish: the whole archive as a static site (no images)", "s", true,
		&target{limit: 300, minSize: 1_000_000, maxSize: 1_000_000, text: "≤ 300 at 1M"}},
	{"publish.mb", "publish: the site's size", "MB", true, nil},
	{"publish.size_ratio", "publish: the site's size / the archive's", "×", true, &target{limit: 1.5001, text: "≤ 1.5"}},
	{"cold.live_first_markers_ms", "cold: live explorer, navigation to first markers, fresh browser each load, median", "ms", true,
		&target{limit: 1200.001, text: "≤ 1200"}},
	{"cold.published_first_markers_ms", "cold: published explorer (static file server), the same", "ms", true,
		&target{limit: 1200.001, text: "≤ 1200"}},
	// Up to the points limit (200k) a site sends every point once, so that
	// the timeline scrubs without asking again: the target is a large site's.
	{"cold.published_city_view_kb", "cold: data the published site sends for a city view at z11 (one month)", "KB", true,
		&target{limit: 500.001, minSize: 200_001, text: "≤ 500 above 200k"}},
	// Above the points limit a site's map needs its tiles; a host without
	// range requests gets the overview read whole (issue 68, item 4).
	{"cold.published_no_ranges_first_markers_ms", "cold: published explorer over python3 -m http.server (no range requests), the same", "ms", true,
		&target{limit: 5000.001, minSize: 200_001, text: "≤ 5000 above 200k"}},
}

// Results holds what a run measured, by measure key and archive size (0
// for measures taken once per run), and why anything was not measured.
type Results struct {
	values  map[string]map[int]float64
	missing map[string]map[int]string
	notes   []string
	// failures are the errors of measurements that failed.
	failures []error
}

// Failed records an error that fails the run without taking any figure.
func (r *Results) Failed(err error) { r.failures = append(r.failures, err) }

// Fail records that the measures whose key starts with prefix failed at
// size: the table says so in a line, the run ends in an error.
func (r *Results) Fail(prefix string, size int, err error) {
	where := "per run"
	if size != 0 {
		where = sizeName(size)
	}
	r.Failed(fmt.Errorf("%s* at %s: %w", prefix, where, err))
	why, _, _ := strings.Cut(err.Error(), "\n")
	if len(why) > 160 {
		why = why[:160] + "…"
	}
	r.SkipPrefix(prefix, size, "FAILED: "+why)
}

// Note adds a line printed under the table.
func (r *Results) Note(s string) { r.notes = append(r.notes, s) }

func newResults() *Results {
	return &Results{values: map[string]map[int]float64{}, missing: map[string]map[int]string{}}
}

// Set records a measured value (the last word on key at size wins).
func (r *Results) Set(key string, size int, v float64) {
	mustKnow(key)
	if r.values[key] == nil {
		r.values[key] = map[int]float64{}
	}
	r.values[key][size] = math.Round(v*1000) / 1000 // more digits are noise
	delete(r.missing[key], size)
}

// Skip records why key was not measured at size.
func (r *Results) Skip(key string, size int, why string) {
	mustKnow(key)
	if r.missing[key] == nil {
		r.missing[key] = map[int]string{}
	}
	r.missing[key][size] = why
	delete(r.values[key], size)
}

// SkipPrefix records why no measure whose key starts with prefix was
// taken at size.
func (r *Results) SkipPrefix(prefix string, size int, why string) {
	for _, m := range measures {
		if strings.HasPrefix(m.key, prefix) {
			r.Skip(m.key, size, why)
		}
	}
}

func mustKnow(key string) {
	if !slices.ContainsFunc(measures, func(m measure) bool { return m.key == key }) {
		panic("bench: unknown measure " + key)
	}
}

// Report is the run as written to JSON.
type Report struct {
	Date       string `json:"date"`
	Commit     string `json:"commit,omitempty"`
	CPU        string `json:"cpu,omitempty"`
	Cores      int    `json:"cores"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	OS         string `json:"os"`
	Go         string `json:"go"`
	Quick      bool   `json:"quick"`
	// Sizes are the archive sizes of the table's columns, run or not.
	Sizes []int `json:"sizes"`
	Rows  []Row `json:"rows"`
	// Notes say what the figures were taken of, e.g. how the map clustered.
	Notes []string `json:"notes,omitempty"`
}

// Row is one measure at every size.
type Row struct {
	Key    string `json:"key"`
	Label  string `json:"label"`
	Unit   string `json:"unit"`
	Target string `json:"target,omitempty"`
	Cells  []Cell `json:"cells"`
}

// Cell is one measure at one archive size (Size 0: once per run).
type Cell struct {
	Size  int      `json:"size,omitempty"`
	Value *float64 `json:"value"`
	// Status is "ok", "missed", "no target", or why there is no value.
	Status string `json:"status"`
}

// rows builds the table's rows from the results; columns are sizes.
func (r *Results) rows(sizes []int) []Row {
	var out []Row
	for _, m := range measures {
		row := Row{Key: m.key, Label: m.label, Unit: m.unit}
		if m.target != nil {
			row.Target = m.target.text
		}
		at := []int{0}
		if m.perSize {
			at = sizes
		}
		for _, size := range at {
			c := Cell{Size: size, Status: "no target"}
			v, ok := r.values[m.key][size]
			switch {
			case !ok:
				c.Status = r.missing[m.key][size]
				if c.Status == "" {
					c.Status = "not measured"
				}
			case m.target != nil && m.target.appliesTo(size):
				c.Status = "ok"
				if !m.target.met(v) {
					c.Status = "missed"
				}
			}
			if ok {
				c.Value = &v
			}
			row.Cells = append(row.Cells, c)
		}
		out = append(out, row)
	}
	return out
}

// WriteTable prints the report as one fixed table: a value followed by
// "!" misses its target; "—" was not measured (the reasons follow).
func (rep *Report) WriteTable(w io.Writer) error {
	quick := ""
	if rep.Quick {
		quick = " · QUICK"
	}
	fmt.Fprintf(w, "syriamap bench · %d cores (GOMAXPROCS %d) · %s · %s · %s · commit %s · %s%s\n\n",
		rep.Cores, rep.GOMAXPROCS, orUnknown(rep.CPU), rep.OS, rep.Go, orUnknown(rep.Commit), rep.Date, quick)
	// The core count is on every row: a figure read alone keeps it.
	header := []string{"measure", "unit", "cores"}
	for _, s := range rep.Sizes {
		header = append(header, sizeName(s))
	}
	lines := [][]string{append(header, "target", "status")}
	var missing []missingCell
	for _, row := range rep.Rows {
		line := []string{row.Label, row.Unit, strconv.Itoa(rep.Cores)}
		var missedAt, checked []string
		for i := range rep.Sizes {
			if i >= len(row.Cells) { // measured once per run: the first column only
				line = append(line, "")
				continue
			}
			c := row.Cells[i]
			cell := "—"
			if c.Value != nil {
				cell = formatValue(*c.Value)
			} else {
				missing = append(missing, missingCell{row.Key, c.Size, c.Status})
			}
			switch c.Status {
			case "missed":
				cell += " !"
				missedAt = append(missedAt, sizeName(c.Size))
			case "ok":
				checked = append(checked, sizeName(c.Size))
			}
			line = append(line, cell)
		}
		status := ""
		switch {
		case len(missedAt) > 0 && row.Cells[0].Size != 0:
			status = "MISSED at " + strings.Join(missedAt, ", ")
		case len(missedAt) > 0:
			status = "MISSED"
		case len(checked) > 0:
			status = "ok"
		case row.Target != "":
			status = "not checked"
		}
		lines = append(lines, append(line, row.Target, status))
	}
	// Text columns (measure, unit, target, status) align left, figures right.
	left := func(col int) bool { return col < 2 || col >= 3+len(rep.Sizes) }
	widths := make([]int, len(lines[0]))
	for _, l := range lines {
		for i, cell := range l {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	for _, l := range lines {
		var b strings.Builder
		for i, cell := range l {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			if i > 0 {
				b.WriteString("  ")
			}
			if left(i) {
				b.WriteString(cell + pad)
			} else {
				b.WriteString(pad + cell)
			}
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(b.String(), " ")); err != nil {
			return err
		}
	}
	if len(missing) > 0 {
		fmt.Fprintln(w, "\n! misses its target · — not measured:")
	} else {
		fmt.Fprintln(w, "\n! misses its target")
	}
	for _, r := range groupMissing(missing, len(rep.Rows)) {
		fmt.Fprintln(w, "  "+r)
	}
	for _, n := range rep.Notes {
		fmt.Fprintln(w, n)
	}
	return nil
}

// missingCell is a value the run did not measure, and why.
type missingCell struct {
	key  string
	size int
	why  string
}

// groupMissing says once for each size and reason which measures are
// missing ("every measure" when all those per size are).
func groupMissing(cells []missingCell, rows int) []string {
	type group struct {
		size int
		why  string
	}
	var order []group
	keys := map[group][]string{}
	for _, c := range cells {
		g := group{c.size, c.why}
		if keys[g] == nil {
			order = append(order, g)
		}
		keys[g] = append(keys[g], c.key)
	}
	var out []string
	for _, g := range order {
		what := strings.Join(keys[g], ", ")
		if len(keys[g]) >= rows-1 { // all but the once-per-run row
			what = "every measure"
		}
		where := "once per run"
		if g.size != 0 {
			where = "at " + sizeName(g.size)
		}
		out = append(out, fmt.Sprintf("%s, %s: %s", where, what, g.why))
	}
	return out
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// sizeName writes an archive size as the issues do: 10k, 100k, 1M.
func sizeName(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return strconv.Itoa(n/1_000_000) + "M"
	case n >= 1_000 && n%1_000 == 0:
		return strconv.Itoa(n/1_000) + "k"
	}
	return strconv.Itoa(n)
}

// formatValue keeps three significant figures for small values and
// groups the thousands of large ones.
func formatValue(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1000:
		s := strconv.FormatInt(int64(math.Round(v)), 10)
		return groupThousands(s)
	case a >= 100 || v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func groupThousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
