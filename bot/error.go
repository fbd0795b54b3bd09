package bot

import (
	"errors"
	"fmt"
)

// Error codes. They are stable strings that adapters map to how they
// answer (a Discord message, an exit status).
const (
	EINVALID   = "invalid"   // the request is malformed or breaks the rules of play
	ENOTFOUND  = "not_found" // no such game, challenge or notification
	EFORBIDDEN = "forbidden" // the user may not do this here
	ECONFLICT  = "conflict"  // the record changed since it was read (a stale version)
	EINTERNAL  = "internal"  // anything else: a bug or a failing store
)

// Error is a domain error: a code for programs and a message that can be
// shown to the user as it is.
type Error struct {
	Code    string
	Message string
}

// Error returns the code and the message, for logs; show users
// ErrorMessage instead.
func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Errorf returns an *Error with code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, "" for a
// nil err and EINTERNAL for any other error.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the message of the first *Error in err's chain, ""
// for a nil err and "Internal error." for any other error, so that users
// never see the details of a failure that is not theirs.
func ErrorMessage(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Message
	}
	return "Internal error."
}
