package session

import (
	"testing"

	"github.com/tick-agent/tick/provider"
)

// TestModelBeforeFirstMessage: a /model switch made before the session
// file exists is saved as a switch, with its provider, so -c carries it on.
func TestModelBeforeFirstMessage(t *testing.T) {
	for _, prov := range []string{"", "theirs"} {
		dir, ws := t.TempDir(), t.TempDir()
		rec := NewRecorder(dir, ws, "configured")
		if err := rec.ModelOn(prov, "chosen"); err != nil {
			t.Fatal(err)
		}
		if err := rec.Message(provider.Message{Role: provider.RoleUser, Content: "hi"}); err != nil {
			t.Fatal(err)
		}
		path := rec.st.path
		rec.Close()
		ld, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if !ld.Info.ModelSwitched || ld.Info.Model != "chosen" || ld.Info.Provider != prov {
			t.Errorf("provider %q: loaded %+v", prov, ld.Info)
		}
	}
}
