package agent

// VerifyStarted says that the verify check runs: the model ended its
// turn, and Command runs in the workspace (attempt Attempt of Max).
type VerifyStarted struct {
	Command string `json:"command"`
	Attempt int    `json:"attempt"`
	Max     int    `json:"max"`
}

// Verified is what a run of the verify check came to: its exit status
// (nil when it did not run to an end: interrupted, or it could not
// start), whether it passed, and the tail of its output. Final is set
// when the turn ends with it: it passed, or no attempt is left (the
// turn's work is then not done: -p exits 4, verify_failed).
type Verified struct {
	Command    string `json:"command"`
	Attempt    int    `json:"attempt"`
	Max        int    `json:"max"`
	ExitCode   *int   `json:"exit_code"`
	Passed     bool   `json:"passed"`
	OutputTail string `json:"output_tail,omitempty"`
	Final      bool   `json:"final,omitempty"`
}

func (VerifyStarted) Type() string { return "verify_started" }
func (Verified) Type() string      { return "verified" }
