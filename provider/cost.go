package provider

import (
	"encoding/json"
	"math"
)

// serverCost returns the cost in US dollars that a chunk's usage reports
// ("usage":{"cost":0.0012}, as OpenRouter sends it), or nil when it
// reports none or an unusable value (negative, not finite).
func serverCost(raw []byte) *float64 {
	var c struct {
		Usage *struct {
			Cost *float64 `json:"cost"`
		} `json:"usage"`
	}
	if json.Unmarshal(raw, &c) != nil || c.Usage == nil || c.Usage.Cost == nil {
		return nil
	}
	if v := *c.Usage.Cost; v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return c.Usage.Cost
}
