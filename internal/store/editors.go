package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// AddUser adds an editor with a password hash; a name already taken, in
// any case ("Rana" and "rana" are one editor), is an EConflict error.
func (s *DB) AddUser(ctx context.Context, name, hash string) error {
	var taken string
	err := s.reading(ctx, "", "reading editors", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT name FROM users WHERE name = ? COLLATE NOCASE OR lower(name) = lower(?)`, name, name).Scan(&taken)
	})
	if err == nil || !errors.Is(err, sql.ErrNoRows) {
		if err == nil {
			return photo.Errorf(photo.EConflict, "there is already an editor called %q (names are compared without case)", taken)
		}
		return err
	}
	return s.exec(ctx, "adding an editor", `INSERT INTO users (name, hash, created) VALUES (?,?,?)`, func(err error) error {
		if isUniqueViolation(err) {
			return photo.Errorf(photo.EConflict, "there is already an editor called %q", name)
		}
		return err
	}, name, hash, s.Now().UTC().Format(time.RFC3339))
}

// RemoveUser removes an editor with their sessions and tokens; their
// changes stay, under their name.
func (s *DB) RemoveUser(ctx context.Context, name string) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM users WHERE name = ?`, name)
	if err != nil {
		return fmt.Errorf("store: removing %s: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return photo.Errorf(photo.ENotFound, "no editor is called %q", name)
	}
	if err := tx.Commit(); err != nil {
		return s.writeErr(err)
	}
	return nil
}

// Users lists the editors.
func (s *DB) Users(ctx context.Context) ([]photo.User, error) {
	var out []photo.User
	err := s.reading(ctx, "", "listing editors", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT u.name, u.created, (SELECT count(*) FROM tokens t WHERE t.user = u.name) FROM users u ORDER BY u.name COLLATE BINARY`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var u photo.User
			var created string
			if err := rows.Scan(&u.Name, &created, &u.Tokens); err != nil {
				return err
			}
			u.Created, _ = time.Parse(time.RFC3339, created)
			out = append(out, u)
		}
		return rows.Err()
	})
	return out, err
}

// HasUsers reports whether the archive has editors: without any, the
// server takes no writes.
func (s *DB) HasUsers(ctx context.Context) (bool, error) {
	var n int
	err := s.reading(ctx, "", "counting editors", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&n)
	})
	return n > 0, err
}

// PasswordHash returns an editor's name as stored and their password
// hash; names are compared without case, and an unknown one is ENotFound.
func (s *DB) PasswordHash(ctx context.Context, name string) (user, hash string, err error) {
	err = s.reading(ctx, "", "reading an editor", func(ctx context.Context) error {
		// An exact match first: archives from before names were compared
		// without case may hold both "Rana" and "rana".
		return s.read.QueryRowContext(ctx, `SELECT name, hash FROM users WHERE name = ? COLLATE NOCASE OR lower(name) = lower(?) ORDER BY name = ? DESC LIMIT 1`,
			name, name, name).Scan(&user, &hash)
	})
	return user, hash, notFound(err, "editor "+name)
}

// AddToken stores a bearer token's hash for an editor.
func (s *DB) AddToken(ctx context.Context, user, label, hash string) error {
	return s.exec(ctx, "adding a token", `INSERT INTO tokens (hash, user, label, created) VALUES (?,?,?,?)`, func(err error) error {
		if isForeignKeyViolation(err) {
			return photo.Errorf(photo.ENotFound, "no editor is called %q (syriamap users add NAME first)", user)
		}
		return err
	}, hash, user, label, s.Now().UTC().Format(time.RFC3339))
}

// TokenUser returns the editor a token's hash belongs to.
func (s *DB) TokenUser(ctx context.Context, hash string) (string, error) {
	var u string
	err := s.reading(ctx, "", "reading a token", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT user FROM tokens WHERE hash = ?`, hash).Scan(&u)
	})
	return u, notFound(err, "token")
}

// AddSession stores a session under its secret's hash, and forgets the
// sessions that have expired.
func (s *DB) AddSession(ctx context.Context, hash string, se photo.Session) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE expires < ?`, s.Now().UTC().Format(time.RFC3339)); err != nil {
		return fmt.Errorf("store: forgetting old sessions: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (hash, user, csrf, expires) VALUES (?,?,?,?)`,
		hash, se.User, se.CSRF, se.Expires.UTC().Format(time.RFC3339)); err != nil {
		return fmt.Errorf("store: starting a session: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return s.writeErr(err)
	}
	return nil
}

// Session returns the session a secret's hash names, if it has not
// expired.
func (s *DB) Session(ctx context.Context, hash string) (photo.Session, error) {
	var se photo.Session
	var expires string
	err := s.reading(ctx, "", "reading a session", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT user, csrf, expires FROM sessions WHERE hash = ?`, hash).Scan(&se.User, &se.CSRF, &expires)
	})
	if err != nil {
		return se, notFound(err, "session")
	}
	se.Expires, _ = time.Parse(time.RFC3339, expires)
	if !se.Expires.After(s.Now()) {
		return photo.Session{}, photo.Errorf(photo.ENotFound, "session expired")
	}
	return se, nil
}

// DeleteSession ends a session.
func (s *DB) DeleteSession(ctx context.Context, hash string) error {
	return s.exec(ctx, "ending a session", `DELETE FROM sessions WHERE hash = ?`, nil, hash)
}

// AddDevice records a browser that has signed in as user, by the hash of
// its device cookie's secret (see auth.Brake).
func (s *DB) AddDevice(ctx context.Context, hash, user string) error {
	return s.exec(ctx, "recording a browser", `INSERT OR IGNORE INTO devices (hash, user, created) VALUES (?,?,?)`, nil,
		hash, user, s.Now().UTC().Format(time.RFC3339))
}

// DeviceUser returns the editor a device cookie's hash was given to, or
// an ENotFound error.
func (s *DB) DeviceUser(ctx context.Context, hash string) (string, error) {
	var user string
	err := s.reading(ctx, "", "reading a browser", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT user FROM devices WHERE hash = ?`, hash).Scan(&user)
	})
	return user, notFound(err, "no such browser")
}

// SetPassword changes an editor's password hash and ends every session
// of theirs but keep's (a session hash; "" ends them all) and forgets the
// browsers they signed in from, in one transaction: whoever held the old
// password holds nothing after.
func (s *DB) SetPassword(ctx context.Context, user, hash, keep string) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE users SET hash = ? WHERE name = ?`, hash, user)
	if err != nil {
		return fmt.Errorf("store: changing %s's password: %w", user, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return photo.Errorf(photo.ENotFound, "no editor is called %q", user)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user = ? AND hash != ?`, user, keep); err != nil {
		return fmt.Errorf("store: ending %s's other sessions: %w", user, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM devices WHERE user = ?`, user); err != nil {
		return fmt.Errorf("store: forgetting %s's browsers: %w", user, err)
	}
	if err := tx.Commit(); err != nil {
		return s.writeErr(err)
	}
	return nil
}

// AddSignInCode keeps a one-time sign-in code's hash for user until
// expires (see auth.Brake: a code stands for a known browser once).
func (s *DB) AddSignInCode(ctx context.Context, hash, user string, expires time.Time) error {
	return s.exec(ctx, "keeping a sign-in code", `INSERT INTO signin_codes (hash, user, expires) SELECT ?, name, ? FROM users WHERE name = ? COLLATE NOCASE`,
		nil, hash, expires.UTC().Format(time.RFC3339), user)
}

// SignInCodeUser returns the editor an unexpired one-time code's hash was
// given to, or an ENotFound error.
func (s *DB) SignInCodeUser(ctx context.Context, hash string) (string, error) {
	var user string
	err := s.reading(ctx, "", "reading a sign-in code", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT user FROM signin_codes WHERE hash = ? AND expires > ?`, hash, s.Now().UTC().Format(time.RFC3339)).Scan(&user)
	})
	return user, notFound(err, "no such code, or it expired")
}

// UseSignInCode spends a one-time code (and drops the expired ones).
func (s *DB) UseSignInCode(ctx context.Context, hash string) error {
	return s.exec(ctx, "spending a sign-in code", `DELETE FROM signin_codes WHERE hash = ? OR expires <= ?`, nil, hash, s.Now().UTC().Format(time.RFC3339))
}
