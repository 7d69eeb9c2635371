package session

import "testing"

func TestModelLine(t *testing.T) {
	dir, ws := t.TempDir(), t.TempDir()
	st, err := Create(dir, ws, "first")
	if err != nil {
		t.Fatal(err)
	}
	msgs, list := conversation()
	recordAll(t, st, msgs[:1], &list)
	if err := st.Model("second"); err != nil {
		t.Fatal(err)
	}
	recordAll(t, st, msgs[1:], nil)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	ld, err := Load(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	if ld.Info.Model != "second" || !ld.Info.ModelSwitched || len(ld.History) != len(msgs) || len(ld.Warnings) != 0 {
		t.Errorf("model %q, %d messages, warnings %q; want second, %d, none", ld.Info.Model, len(ld.History), ld.Warnings, len(msgs))
	}
}
