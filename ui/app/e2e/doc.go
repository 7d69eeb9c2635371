// Package e2e holds tick's end-to-end tests and nothing else: tick run
// whole, in process through app.Main (headless runs, subcommands,
// sessions, MCP servers, hooks) or as the real binary, built once for the
// package by sharedTick and removed by TestMain, driven in tmux the way a
// person uses it (the full-screen app) or killed and signalled (crash,
// SIGINT, SIGTERM).
//
// Every test stops tick and what it started before its temporary
// directories are removed: the tmux pane is killed in a t.Cleanup
// registered after the directories it uses (cleanups run last-in,
// first-out) and waits for tick to exit.
package e2e
