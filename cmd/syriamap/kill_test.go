package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/geoparse/gen"
	"github.com/syriamap/syriamap/internal/pgtest"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// TestMain lets a test run the command in a child process: with
// SYRIAMAP_TEST_MAIN set, the test binary is syriamap itself.
func TestMain(m *testing.M) {
	if args := os.Getenv("SYRIAMAP_TEST_MAIN"); args != "" {
		err := run(context.Background(), strings.Split(args, "\x1f"), os.Stdin, os.Stdout, os.Stderr)
		if err != nil {
			fmt.Fprintln(os.Stderr, "syriamap:", err)
			os.Exit(exitCode(err))
		}
		os.Exit(0)
	}
	os.Exit(pgtest.Main(m))
}

// TestKillDuringImport kills an import with SIGKILL while it writes its
// second file, at a random point in its first half, another in its second
// half, and near its end (the points are logged), then checks each time
// that the archive is sound and holds the first file whole and nothing of
// the second: a commit anywhere inside a file would show.
func TestKillDuringImport(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a large file")
	}
	dir := t.TempDir()
	g, err := bundledGazetteer()
	if err != nil {
		t.Fatal(err)
	}
	gn := gen.New(g, 11)
	writeCaptions := func(name string, n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%s\n\n", gn.Caption())
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	small := writeCaptions("small.txt", 500)
	big := writeCaptions("big.txt", 200000)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	for i, at := range []float64{0.1 + 0.4*rng.Float64(), 0.5 + 0.35*rng.Float64(), 0.95} {
		t.Logf("kill %d: when %.0f%% of the second file is read", i+1, 100*at)
		killImportAt(t, filepath.Join(dir, fmt.Sprintf("kill-%d.db", i)), small, big, at)
	}
}

// killImportAt imports small then big into db in a child process, kills
// it once it has read the fraction at of big, and checks the archive.
func killImportAt(t *testing.T, db, small, big string, at float64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SYRIAMAP_TEST_MAIN="+strings.Join([]string{"import", "--db", db, small, big}, "\x1f"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	st, err := os.Stat(big)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Minute)
	for readAt(cmd.Process.Pid, big) < int64(at*float64(st.Size())) {
		select {
		case err := <-exited:
			t.Fatalf("the import ended (%v) before %.0f%% of the second file was read", err, 100*at)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the import never read %.0f%% of the second file", 100*at)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited

	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.Integrity(ctx); err != nil {
		t.Fatal(err)
	}
	n, err := s.Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != 500 {
		t.Errorf("killed at %.0f%%: %d photos, want the first file's 500 and none of the second's", 100*at, n)
	}
	if hits, err := s.CountPhotos(ctx, photo.Filter{}); err != nil || hits != 500 {
		t.Errorf("killed at %.0f%%: %d photos listed (%v), want 500", 100*at, hits, err)
	}
}

// readAt returns how far process pid has read the file at path (its
// descriptor's offset, from /proc), or 0 while it has not opened it.
func readAt(pid int, path string) int64 {
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	for _, fd := range fds {
		if target, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); err != nil || target != path {
			continue
		}
		info, err := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/%s", pid, fd.Name()))
		if err != nil {
			return 0
		}
		for _, line := range strings.Split(string(info), "\n") {
			if v, ok := strings.CutPrefix(line, "pos:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				return n
			}
		}
	}
	return 0
}
