package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// users passwd changes the password and ends every session of the editor.
func TestUsersPasswd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	if _, _, err := runCmd(t, "the first password\n", "users", "add", "--db", db, "--password-stdin", "rana"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddSession(ctx, "session-hash", photo.Session{User: "rana", CSRF: "x", Expires: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, _, err := runCmd(t, "short\n", "users", "passwd", "--db", db, "--password-stdin", "rana"); err == nil {
		t.Error("a short password is taken")
	}
	if _, _, err := runCmd(t, "x\n", "users", "passwd", "--db", db, "--password-stdin", "nobody"); err == nil {
		t.Error("an unknown editor's password is changed")
	}
	out, _, err := runCmd(t, "the second password\n", "users", "passwd", "--db", db, "--password-stdin", "rana")
	if err != nil || !strings.Contains(out, "every session of theirs has ended") {
		t.Fatalf("users passwd: %q, %v", out, err)
	}
	s, err = store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, hash, _ := s.PasswordHash(ctx, "rana"); !auth.CheckPassword(hash, "the second password") {
		t.Error("the new password does not check")
	}
	if _, err := s.Session(ctx, "session-hash"); photo.ErrorCode(err) != photo.ENotFound {
		t.Errorf("the session survived the change: %v", err)
	}
}
