package helperbin

import _ "embed"

// image is the gzipped helper for linux/arm64.
//
//go:embed helper_linux_arm64.gz
var image []byte
