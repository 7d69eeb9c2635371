//go:build !linux || !(amd64 || arm64)

package helperbin

// image is empty where tick carries no helper image: Load fails with
// ErrNoImage.
var image []byte
