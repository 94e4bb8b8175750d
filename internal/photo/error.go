package photo

import (
	"errors"
	"fmt"
)

// Error codes: what kind of failure an Error is. The HTTP layer maps them
// to statuses in one place; commands print the message.
const (
	EInvalid  = "invalid"   // bad input: a malformed file, query or flag
	ENotFound = "not_found" // no such photo or place
	EConflict = "conflict"  // the request clashes with the archive's state
	EInternal = "internal"  // a fault of syriamap's; the message is not for users
)

// Error is syriamap's application error: a code and a message fit to show
// a user.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
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
