// Package app is tick's composition root and what a run does between it
// and the UI packages. See docs/architecture.md.
//
// Main (run.go) is the command without its dispatch: it resolves the
// command line, the environment and the config files once through
// agent/config (config is that Run plus the live handles built from it),
// runs --help, --version or a subcommand (tick config, doctor, mcp,
// sessions) or the first-run setup, and wires the model client, the MCP
// servers, hooks and custom commands, the session, the sandbox runner,
// undo and the agent to the headless -p run or the full-screen app. It
// stops what it started before it returns.
//
// The rest is the run itself: the conversation the full-screen app talks
// to (Session), which its slash commands may replace (/new starts a fresh
// agent and session file, the /sessions picker lists the workspace's
// sessions and resumes or forks one), the headless -p run (RunHeadless),
// carrying on a saved session (CarryOn: tick -c, --resume), restoring one
// into a new agent with its plan and mode (Restore, History: every resume
// goes through them) and the `tick sessions` listing (FormatSessions,
// WriteSessionsJSON).
//
// The contract: a Session owns the recorder it holds (Close closes it, and
// a replaced one is closed when it is replaced); it never builds a model
// client itself, Main hands it a function that makes an agent (Options).
// NewSession runs in the app's update loop; Sessions, Resume and Fork run
// off it, and never while a turn runs. All methods are safe for concurrent
// use. Only Main and what it calls talk to the provider and the tools,
// read the environment or install signal handlers.
package app
