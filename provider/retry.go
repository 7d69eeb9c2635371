package provider

import (
	"errors"
	"net"
	"syscall"
	"time"
)

// quickRetry is the most a refused connection waits before its one retry.
const quickRetry = 500 * time.Millisecond

// retryable reports whether a failed attempt may be retried.
func retryable(err error) bool {
	if _, ok := ToolCallParseError(err); ok {
		return false // the model's mistake: the same request would repeat it
	}
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Temporary()
	}
	var ce *connError
	return errors.As(err, &ce) || errors.Is(err, ErrStreamCut) || errors.Is(err, ErrEmptyStream)
}

// retriedOnce reports whether err is of a kind retried at most once: a cut
// or empty stream, or a refused connection.
func retriedOnce(err error) bool {
	var ae *APIError
	if errors.As(err, &ae) && !errors.Is(err, ErrStreamCut) {
		return false
	}
	return errors.Is(err, ErrStreamCut) || errors.Is(err, ErrEmptyStream) || refused(err)
}

// refused reports whether err is a refused connection or an unknown host:
// nothing listens there, and waiting long will not change that.
func refused(err error) bool {
	var dns *net.DNSError
	return errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &dns)
}

// backoff returns the wait before retry number attempt+1: MinBackoff
// doubled per attempt, or the server's Retry-After when it says more,
// capped at MaxBackoff.
func (c *Client) backoff(attempt int, err error) time.Duration {
	wait := c.cfg.MaxBackoff
	if attempt < 30 {
		wait = c.cfg.MinBackoff << attempt
	}
	var ae *APIError
	if errors.As(err, &ae) && ae.retryAfter > wait {
		wait = ae.retryAfter
	}
	if wait > c.cfg.MaxBackoff || wait <= 0 {
		wait = c.cfg.MaxBackoff
	}
	return wait
}
