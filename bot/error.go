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
	// EUNKNOWN: the store did not answer in time (an etcd leader change
	// that outlasted the request, say), and whether the change was
	// made is not known: it may have been. Not a bug, not the user's
	// fault; the user should look before trying again.
	EUNKNOWN = "outcome_unknown"
	// EUNAVAILABLE: the store did not answer in time and nothing was
	// written: trying again later is safe.
	EUNAVAILABLE = "unavailable"
)

// OutcomeUnknownMessage is the message of OutcomeUnknown's error.
// Adapters answering a move say so in their words (see
// command.OutcomeUnknownMove).
const OutcomeUnknownMessage = "The store did not answer in time, so it is not known whether your change was made: look before trying again."

// UnavailableMessage is the message of Unavailable's error.
const UnavailableMessage = "The store did not answer in time and nothing was changed: try again in a moment."

// Unavailable returns the error of a store that got no answer before
// writing anything: code EUNAVAILABLE, with cause in its chain.
func Unavailable(cause error) error {
	return fmt.Errorf("%w: %w", &Error{Code: EUNAVAILABLE, Message: UnavailableMessage}, cause)
}

// OutcomeUnknown returns the error of a store whose write got no answer
// and could not find out whether it was applied: code EUNKNOWN, with
// cause (the store's own error, for logs) in its chain.
func OutcomeUnknown(cause error) error {
	return fmt.Errorf("%w: %w", &Error{Code: EUNKNOWN, Message: OutcomeUnknownMessage}, cause)
}

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

// Unanswered reports whether err is a store's that did not answer in
// time (EUNAVAILABLE or EUNKNOWN): worth a warning, not an error, in a
// log (an etcd election, members unreachable).
func Unanswered(err error) bool {
	c := ErrorCode(err)
	return c == EUNAVAILABLE || c == EUNKNOWN
}
