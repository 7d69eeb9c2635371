package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// overlay is one thing that sits on top of the screen and takes the keys
// while it is open: the approval dialog, the undo confirmation, the plan
// editor, the /sessions and /model pickers and the help overlay. Each is
// one file (approval.go, undo.go, plan_editor.go, picker.go,
// modelpicker.go, help.go); the root only keeps them on one stack
// (overlays) and asks the top one first.
//
// A new dialog is a type with these methods, opened with m.over.push.
type overlay interface {
	// layer orders the stack: an overlay sits above every overlay of a
	// lower layer, whenever it opened (a question the turn waits on
	// always stays above a picker), and above those of its own layer
	// that opened before it.
	layer() int
	// update handles a tea.KeyPressMsg, tea.PasteMsg or tea.MouseWheelMsg
	// while the overlay is on top; lastKey is when the key before this
	// one came (for the deliberate pause, see answerPause). handled false
	// passes the message on to the screen below: the root's keys and the
	// input. An overlay closes itself with m.over.remove.
	update(m *Model, msg tea.Msg, lastKey time.Time) (cmd tea.Cmd, handled bool)
	// view returns the overlay's lines for the area above the input, w
	// cells wide and h lines high; they are drawn over the bottom of the
	// area. nil draws nothing (the plan editor draws in the panel). It
	// runs in Update (render), never in View.
	view(m *Model, w, h int) []string
}

// The layers of the overlays, lowest first.
const (
	layerHelp     = iota + 1 // the help overlay: any other dialog covers it
	layerPicker              // the /sessions and /model pickers
	layerEditor              // the plan editor
	layerUndo                // the undo confirmation
	layerApproval            // the approval dialog: the running turn waits on it
)

// overlays is the stack of open overlays, the top last.
type overlays []overlay

// push opens o above every overlay of its layer or a lower one.
func (s *overlays) push(o overlay) {
	i := len(*s)
	for i > 0 && (*s)[i-1].layer() > o.layer() {
		i--
	}
	*s = append(*s, nil)
	copy((*s)[i+1:], (*s)[i:])
	(*s)[i] = o
}

// remove closes o; it does nothing when o is not open.
func (s *overlays) remove(o overlay) {
	for i, x := range *s {
		if x == o {
			*s = append((*s)[:i], (*s)[i+1:]...)
			return
		}
	}
}

// top returns the overlay on top, or nil.
func (s overlays) top() overlay {
	if len(s) == 0 {
		return nil
	}
	return s[len(s)-1]
}

// covers reports whether an open overlay draws over the area above the
// input (the input's popups, @ and /, are not drawn then): any but the
// plan editor, which draws in the panel.
func (s overlays) covers() bool {
	for _, o := range s {
		if o.layer() != layerEditor {
			return true
		}
	}
	return false
}

// overlayOf returns the open overlay of type T, or T's zero value.
func overlayOf[T overlay](m *Model) T {
	for _, o := range m.over {
		if t, ok := o.(T); ok {
			return t
		}
	}
	var zero T
	return zero
}

// routeOverlay gives msg to the top overlay; handled false means no
// overlay took it.
func (m *Model) routeOverlay(msg tea.Msg, lastKey time.Time) (tea.Cmd, bool) {
	o := m.over.top()
	if o == nil {
		return nil, false
	}
	return o.update(m, msg, lastKey)
}

// drawOverlays draws the open overlays, lowest first, over area (the
// lines above the input, w cells wide).
func (m *Model) drawOverlays(area []string, w int) {
	for _, o := range m.over {
		box := o.view(m, w, len(area))
		if len(box) > len(area) {
			box = box[:len(area)]
		}
		copy(area[len(area)-len(box):], box)
	}
}
