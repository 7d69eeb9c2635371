package session

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/tick-agent/tick/provider"
)

// TestImagesRoundTrip: a user message with an image (up to the 1 MiB that
// package imagefile sends) is saved as it was sent and loads back equal;
// the listing still finds the first prompt on its long line.
func TestImagesRoundTrip(t *testing.T) {
	dir, ws := t.TempDir(), t.TempDir()
	st, err := Create(dir, ws, "m")
	if err != nil {
		t.Fatal(err)
	}
	img := provider.Image{MediaType: "image/png", Data: bytes.Repeat([]byte{0x89, 'P', 0}, 1<<20/3), Name: "shot.png"}
	msgs := []provider.Message{
		{Role: provider.RoleUser, Content: "what is @shot.png?", Images: []provider.Image{img}},
		{Role: provider.RoleAssistant, Content: "a box"},
	}
	recordAll(t, st, msgs, nil)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	ld, err := Load(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ld.History, msgs) {
		t.Errorf("the image did not load back as saved")
	}
	info, err := scanInfo(st.Path())
	if err != nil || info.FirstPrompt != "what is @shot.png?" || info.Turns != 1 {
		t.Errorf("listing: %+v, %v", info, err)
	}
}
