//go:build linux && !amd64 && !arm64

package sandbox

// nativeArch 0: no seccomp filter for this architecture yet.
const (
	nativeArch uint32 = 0
	x32Bit     uint32 = 0
)
