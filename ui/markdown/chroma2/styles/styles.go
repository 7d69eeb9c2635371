// Package styles is chroma v2's style registry as glamour uses it, backed
// by chroma v0.10's (see the parent package).
package styles

import (
	v0 "github.com/alecthomas/chroma"
	v0styles "github.com/alecthomas/chroma/styles"
)

// Registry is chroma v0.10's registry of styles by name: the same map.
var Registry = v0styles.Registry

// Register adds style to the registry and returns it.
func Register(style *v0.Style) *v0.Style { return v0styles.Register(style) }
