package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/gen"
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
	os.Exit(m.Run())
}

// TestKillDuringImport kills an import with SIGKILL while it writes its
// second file, then checks that the archive is sound and holds the first
// file whole and nothing of the second.
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
	big := writeCaptions("big.txt", 300000)
	db := filepath.Join(dir, "kill.db")

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SYRIAMAP_TEST_MAIN="+strings.Join([]string{"import", "--db", db, small, big}, "\x1f"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the first file is committed and the second is being
	// written (its WAL grows), then kill.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the import never reached the second file")
		}
		if st, err := os.Stat(db + "-wal"); err == nil && st.Size() > 8<<20 && committed(db) == 500 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

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
		t.Errorf("%d photos after the kill, want the first file's 500 and none of the second's", n)
	}
	if hits, err := s.CountPhotos(ctx, photo.Filter{Unplaced: false}); err != nil || hits != 500 {
		t.Errorf("%d photos listed (%v), want 500", hits, err)
	}
}

// committed counts the photos an archive holds, or -1.
func committed(path string) int {
	s, err := store.Open(context.Background(), path)
	if err != nil {
		return -1
	}
	defer s.Close()
	n, err := s.Count(context.Background())
	if err != nil {
		return -1
	}
	return n
}
