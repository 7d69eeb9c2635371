package provider

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// captureDoer sends requests with client, keeping the response header (for
// Retry-After) and wrapping a successful body to notice [DONE], to bound
// its lines and to tell the idle watch that bytes arrive.
type captureDoer struct {
	client  *http.Client
	watch   *idleWatch
	maxLine int
	header  http.Header
	body    *trackBody
	whole   []byte              // a successful non-streamed JSON answer
	rewrite func([]byte) []byte // adjusts the request body to the server
}

// Do implements go-openai's HTTPDoer.
func (d *captureDoer) Do(req *http.Request) (*http.Response, error) {
	if err := d.rewriteBody(req); err != nil {
		return nil, err
	}
	resp, err := d.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			ue.URL = RedactURL(ue.URL) // it is quoted in the message
		}
		return resp, err
	}
	d.watch.kick(waitFirst)
	d.header = resp.Header
	if resp.StatusCode >= 300 { // go-openai reads an error body whole
		b, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		resp.Body = io.NopCloser(bytes.NewReader(b))
	}
	if resp.StatusCode < 300 && strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		b, err := io.ReadAll(io.LimitReader(resp.Body, maxWhole))
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if !bytes.HasPrefix(bytes.TrimSpace(b), []byte("data:")) {
			d.whole = b
		}
		resp.Body = io.NopCloser(bytes.NewReader(b))
	}
	d.body = &trackBody{rc: newSSEFilter(resp.Body, d.watch), maxLine: d.maxLine}
	resp.Body = d.body
	return resp, nil
}
