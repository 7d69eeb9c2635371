package chat

import (
	"github.com/tick-agent/tick/agent/humanize"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/style"
)

// AddMark adds a marker line to the transcript, "── label ──", for an
// event that changes the conversation rather than adding to it (a
// compaction).
func (c *Model) AddMark(label string) {
	c.endStream()
	c.AddNotice("── " + label + " ──")
}

// CompactedLabel is the marker label of a compaction: "compacted: 84.2k →
// 12.1k tokens".
// A replayed compaction has no figures: "compacted"; a replayed rewind of
// the conversation says what it went back to.
func CompactedLabel(ev agent.Compacted) string {
	if ev.Rewound != "" {
		return "rewound to before " + style.OneLine(ev.Rewound) // from a session file
	}
	if ev.Before == 0 && ev.After == 0 {
		return "compacted"
	}
	return "compacted: " + humanize.Tokens(ev.Before) + " → " + humanize.Tokens(ev.After) + " tokens"
}
