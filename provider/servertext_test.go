package provider_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// fakeKey is the API key the tests configure; the fake server echoes it.
const fakeKey = "sk-proj-Zq8xSECRETkeyVALUE0123456789abcdef"

// TestServerTextIsMaskedAndOneLine: a server that echoes the configured key
// (or the whole Authorization header) in its error text, and breaks that
// text into lines, yields an error on one line (line breaks shown as ⏎)
// without the key, whatever the shape of its error answer.
func TestServerTextIsMaskedAndOneLine(t *testing.T) {
	forged := "\r\ntick: the turn is done\ntick: exit 0"
	tests := []struct {
		name  string
		reply func(auth string) providertest.Reply
	}{
		{"JSON error object", func(auth string) providertest.Reply {
			return providertest.Reply{Status: 401, Body: errorBody("Incorrect API key provided: " + strings.TrimPrefix(auth, "Bearer ") + "." + forged)}
		}},
		{"plain string error", func(auth string) providertest.Reply {
			b, _ := json.Marshal(map[string]string{"error": "bad key " + strings.TrimPrefix(auth, "Bearer ") + forged})
			return providertest.Reply{Status: 403, Body: string(b)}
		}},
		{"Authorization header echoed", func(auth string) providertest.Reply {
			return providertest.Reply{Status: 400, Body: errorBody("rejected header Authorization: " + auth + forged)}
		}},
		{"error event in the stream", func(auth string) providertest.Reply {
			return providertest.Reply{ErrorEvent: errorBody("key " + strings.TrimPrefix(auth, "Bearer ") + " revoked" + forged)}
		}},
		{"whole-answer error object", func(auth string) providertest.Reply {
			return providertest.Reply{Body: errorBody("Incorrect API key provided: " + strings.TrimPrefix(auth, "Bearer ") + forged)}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.SetFunc(func(r providertest.Request) providertest.Reply { return tt.reply(r.Header.Get("Authorization")) })
			c := newClient(t, srv.URL, func(c *provider.Config) {
				c.APIKey = fakeKey
				c.MaxRetries = -1
			})
			var rec recorder
			_, err := c.Stream(context.Background(), userRequest("hi"), rec.handler())
			if err == nil {
				t.Fatal("Stream succeeded; want the server's error")
			}
			if got := srv.Requests(); len(got) == 0 || got[0].Header.Get("Authorization") != "Bearer "+fakeKey {
				t.Fatalf("the fake server did not get the key")
			}
			msg := err.Error()
			if strings.Contains(msg, fakeKey) || strings.Contains(msg, "SECRETkeyVALUE") {
				t.Errorf("the error shows the API key: %q", msg)
			}
			if strings.ContainsAny(msg, "\r\n") {
				t.Errorf("the server's text forged lines: %q", msg)
			}
			if !strings.Contains(msg, "tick: the turn is done") || !strings.Contains(msg, "****") {
				t.Errorf("the server's text or the mask is missing: %q", msg)
			}
		})
	}
}

// errorBody is an OpenAI-style error object with message.
func errorBody(message string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": "invalid_request_error", "code": "invalid_api_key"}})
	return string(b)
}

// TestServerTextLineBreaks: the line breaks of a JSON error message are
// shown as ⏎, so that the text stays readable on its one line.
func TestServerTextLineBreaks(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Status: 400, Body: errorBody("first\r\nsecond\rthird\nfourth\n")})
	c := newClient(t, srv.URL, func(c *provider.Config) { c.MaxRetries = -1 })
	var rec recorder
	_, err := c.Stream(context.Background(), userRequest("hi"), rec.handler())
	if err == nil || !strings.HasSuffix(err.Error(), ": first ⏎ second ⏎ third ⏎ fourth") {
		t.Fatalf("err = %v, want the message's lines joined with ⏎", err)
	}
}

// reasonServer answers every request with status 401 and a reason phrase
// that echoes the request's bearer token; it returns the base URL.
func reasonServer(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				req, err := http.ReadRequest(bufio.NewReader(conn))
				if err != nil {
					return
				}
				body := `{"error":{"message":"no"}}`
				fmt.Fprintf(conn, "HTTP/1.1 401 Bad key %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
					strings.TrimPrefix(req.Header.Get("Authorization"), "Bearer "), len(body), body)
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/v1"
}

// TestStatusReasonIsMasked: the reason phrase of the status line is the
// server's text too: a key echoed there is masked, in a model call and
// in the model listing.
func TestStatusReasonIsMasked(t *testing.T) {
	base := reasonServer(t)
	c := newClient(t, base, func(c *provider.Config) {
		c.APIKey = fakeKey
		c.MaxRetries = -1
	})
	var rec recorder
	_, err := c.Stream(context.Background(), userRequest("hi"), rec.handler())
	if err == nil || strings.Contains(err.Error(), "SECRETkeyVALUE") || !strings.Contains(err.Error(), "401 Bad key sk-****") {
		t.Fatalf("model call: err = %v, want the status line with the key masked", err)
	}
	_, err = provider.ListModels(context.Background(), base, fakeKey)
	if err == nil || strings.Contains(err.Error(), "SECRETkeyVALUE") || !strings.Contains(err.Error(), "401 Bad key sk-****") {
		t.Fatalf("model list: err = %v, want the status line with the key masked", err)
	}
}
