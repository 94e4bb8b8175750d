package photo

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
)

// Error codes: what kind of failure an Error is. The HTTP layer maps them
// to statuses in one place; commands print the message.
const (
	EInvalid  = "invalid"   // bad input: a malformed file, query or flag
	ENotFound = "not_found" // no such photo or place
	EConflict = "conflict"  // the request clashes with the archive's state
	// EStale: a write over a newer version than its editor saw (see
	// Expect); Error.Current says what it is now.
	EStale = "stale"
	// EForbidden: understood, and refused (a file type the server does not
	// serve, a write to a read-only archive).
	EForbidden = "forbidden"
	// EUnauthorized: the request needs an editor, signed in or with a
	// token, and has none.
	EUnauthorized = "unauthorized"
	// ETooMany: too many tries (wrong passwords); wait and try again.
	ETooMany = "too_many"
	// ETooLarge: the thing asked for is too large to make (an image of
	// more pixels than the server decodes).
	ETooLarge = "too_large"
	// EUnsupported: a request body of a type the route does not take.
	EUnsupported = "unsupported"
	// EUndecodable: an image no decoder syriamap has reads (an
	// arithmetic-coded or 12-bit JPEG, a broken file): nothing can be made
	// of it, however often it is asked for.
	EUndecodable = "undecodable"
	// EDiskFull: the archive's disk is full; nothing was written.
	EDiskFull = "disk_full"
	// EUnavailable: the archive cannot answer now (too busy, a query ran
	// past its deadline); the same request may work later.
	EUnavailable = "unavailable"
	ECorrupt     = "corrupt"  // the archive file is damaged
	EInternal    = "internal" // a fault of syriamap's; the message is not for users
)

// Error is syriamap's application error: a code and a message fit to show
// a user.
type Error struct {
	Code    string
	Message string
	// Parameter names the query parameter or field that was invalid,
	// when one was.
	Parameter string
	// Current is what a stale write met (a Stale), for its answer.
	Current any
}

func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ParamErrorf returns an invalid-input *Error about the named parameter;
// the message begins with the name.
func ParamErrorf(name, format string, args ...any) *Error {
	return &Error{Code: EInvalid, Parameter: name, Message: name + ": " + fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err's *Error, EInternal for any other
// error, and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	}
	return EInternal
}

// ErrorMessage returns the message of err's *Error, or a generic message
// for internal errors, whose text may hold details not meant for users.
func ErrorMessage(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Message
	}
	return "internal error"
}

// DiskFull returns an EDiskFull error in place of err when err is a write
// that failed for want of disk space (SQLite's "database or disk is full",
// or ENOSPC from the file system), and err otherwise. Nothing was
// written: SQLite rolls the transaction back.
func DiskFull(err error) error {
	if err == nil || ErrorCode(err) != EInternal {
		return err
	}
	msg := err.Error()
	if errors.Is(err, syscall.ENOSPC) || strings.Contains(msg, "database or disk is full") || strings.Contains(msg, "no space left on device") {
		return Errorf(EDiskFull, "the disk holding the archive is full: nothing was written; free some space and try again")
	}
	return err
}
