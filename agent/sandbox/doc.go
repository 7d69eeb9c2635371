// Package sandbox confines the commands the model runs.
//
// It has these parts:
//
//   - ScrubEnv: the environment a command gets, without tick's API key and
//     anything whose name looks like a secret.
//   - Runner.Command: how to start `bash -c SCRIPT` under a Policy. The
//     command is the helper (`HELPER __sandbox POLICY -- bash -c SCRIPT`,
//     see Main), Support.Helper: the small build of it tick carries
//     (package helperbin, run from a sealed memory file), or where that
//     cannot run tick itself (package entry runs it from its initialiser,
//     before the heavy packages' init); started once per command, in new user, mount,
//     network and PID namespaces where the kernel allows them; the helper
//     applies the policy (Landlock file rules, a seccomp filter, every
//     .git entry of the workspace read-only, private /tmp and /run),
//     starts bash, and when bash ends kills and reaps every process it
//     left behind. With namespaces the helper is init (PID 1) of the PID
//     namespace: before the file rules (which forbid mounting) apply, it
//     mounts that namespace's /proc and an empty /dev/pts and bounds the
//     number of processes; when it ends, however it ends, the kernel ends
//     every process of the command. As init it cannot end by a signal it
//     sends itself, so a command ended by a signal other than SIGSYS is
//     reported by its exit code, 128+signal.
//   - GitMeta, Runner.GitChanges and Quarantine: the .git entries a
//     confined command created or replaced, found when it ends by a scan
//     that reads only the directories that changed (inotify tells which),
//     and moved aside until
//     the user says to keep them.
//   - Policy.Protect, GitConfigPaths and Runner.Protects: paths made
//     read-only like .git (.tick, trusted scripts, what the repository's
//     git config names in the workspace, read once per runner); the
//     file tools ask before writing there. One that cannot be made
//     read-only (missing, a link) and that a command created or
//     replaced is reported by Runner.GitChanges like a planted .git.
//   - Policy.Hidden: tick's own directories, neither readable nor
//     writable by commands; and the repository config's extraheader
//     values, hidden behind a copy without them.
//   - CacheEnv and CommandCacheDir: the commands' caches of their own.
//   - Probe: what this machine supports, the mode that is really in force
//     and why (for the status bar and `tick doctor`).
//
// Nothing here reads tick's configuration or environment on its own: the
// caller hands in a Policy and the environment (CommandCacheDir, which the
// caller calls, finds the user's cache directory).
package sandbox
