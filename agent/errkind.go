package agent

import (
	"errors"

	"github.com/tick-agent/tick/provider"
)

// ErrorKind says why a turn failed, for the front-end's advice: the kinds
// of a failed model call (classified by provider.KindOf) and the agent's
// own. It is empty when the turn did not fail.
type ErrorKind = provider.Kind

// The kinds TurnEnd.Kind takes. Those of the model call mirror provider's.
const (
	KindNone          = provider.KindNone
	KindUnknown       = provider.KindUnknown
	KindConfig        = provider.KindConfig
	KindAuth          = provider.KindAuth
	KindForbidden     = provider.KindForbidden
	KindNotFound      = provider.KindNotFound
	KindRateLimit     = provider.KindRateLimit
	KindBadRequest    = provider.KindBadRequest
	KindServer        = provider.KindServer
	KindContextWindow = provider.KindContextWindow
	KindNetwork       = provider.KindNetwork
	KindStreamCut     = provider.KindStreamCut
	KindTimeout       = provider.KindTimeout
	KindTooLarge      = provider.KindTooLarge
	KindEmptyStream   = provider.KindEmptyStream
	KindCanceled      = provider.KindCanceled

	// KindBusy: a turn was already running (ErrBusy).
	KindBusy ErrorKind = "busy"
	// KindRoundCap: the turn reached its cap of model calls; sending a
	// message lets it carry on.
	KindRoundCap ErrorKind = "round_cap"
	// KindEmptyAnswer: the model answered with no text and no tool call
	// (ErrEmptyAnswer); Retry asks again.
	KindEmptyAnswer ErrorKind = "empty_answer"
)

// ErrEmptyAnswer ends a turn whose model answered with nothing: no text
// and no tool call, and none earlier in the turn. The turn counts as
// failed, so that -p exits non-zero and Retry can ask again.
var ErrEmptyAnswer = errors.New("the model returned an empty answer")

// KindOf classifies the error that ended a turn.
func KindOf(err error) ErrorKind {
	switch {
	case err == nil:
		return KindNone
	case errors.Is(err, ErrBusy):
		return KindBusy
	case errors.Is(err, errRoundCap):
		return KindRoundCap
	case errors.Is(err, ErrEmptyAnswer):
		return KindEmptyAnswer
	case errors.Is(err, errBudget):
		return KindBudget
	}
	return provider.KindOf(err)
}
