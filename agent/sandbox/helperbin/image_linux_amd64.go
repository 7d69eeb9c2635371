package helperbin

import _ "embed"

// image is the gzipped helper for linux/amd64.
//
//go:embed helper_linux_amd64.gz
var image []byte
