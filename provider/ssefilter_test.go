package provider

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestSSEFilter(t *testing.T) {
	in := ": keep-alive\n\nevent: message\nid: 7\nretry: 100\ndata: {\"a\":1}\n\n:\ndata:x\n" +
		"dat\nidle: not a field\nevent\n" + "data: [DONE]\n\nda"
	want := "\ndata: {\"a\":1}\n\ndata:x\ndat\nidle: not a field\nevent\ndata: [DONE]\n\nda"
	for name, r := range map[string]io.Reader{
		"whole":       strings.NewReader(in),
		"one byte":    iotest.OneByteReader(strings.NewReader(in)),
		"half-reads":  iotest.HalfReader(strings.NewReader(in)),
		"data errors": iotest.DataErrReader(strings.NewReader(in)),
	} {
		t.Run(name, func(t *testing.T) {
			got, err := io.ReadAll(newSSEFilter(io.NopCloser(r), nil))
			if err != nil || string(got) != want {
				t.Fatalf("got %q, %v\nwant %q", got, err, want)
			}
		})
	}
}

// TestSSEFilterKeepsLongStreams: fields without data between data lines
// never add up to the cap, however long the stream.
func TestSSEFilterKeepsLongStreams(t *testing.T) {
	event := "event: message\nid: 123456789\ndata: {}\n\n"
	in := strings.Repeat(event, 3*maxNonData/len("event: message\nid: 123456789\n"))
	n, err := io.Copy(io.Discard, newSSEFilter(io.NopCloser(strings.NewReader(in)), nil))
	if err != nil || n == 0 {
		t.Fatalf("read %d bytes: %v", n, err)
	}
}
