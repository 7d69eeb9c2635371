package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Budgets are a turn's caps: model calls, cost in US dollars, time. A
// zero field is no cap (for Turns: the agent's default of 200).
type Budgets struct {
	Turns int
	Cost  float64
	Time  time.Duration
}

// Budgets returns the budgets in effect: each flag's value (non-zero in
// flags) wins over the user file's. s may be nil (no files).
func (s *Settings) Budgets(flags Budgets) Budgets {
	b := flags
	if s == nil {
		return b
	}
	if b.Turns == 0 {
		b.Turns = s.MaxTurns
	}
	if b.Cost == 0 {
		b.Cost = s.MaxCost
	}
	if b.Time == 0 && s.MaxTime != "" {
		b.Time, _ = time.ParseDuration(s.MaxTime) // validated by Load
	}
	return b
}

// ParseCost reads a --max-cost value: US dollars, "0.50" or "$0.50",
// positive.
func ParseCost(v string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimPrefix(strings.TrimSpace(v), "$"), 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("--max-cost needs a positive amount of US dollars such as 0.50, not %q", v)
	}
	return f, nil
}

// ParseMaxTime reads a --max-time value: a positive Go duration ("10m").
func ParseMaxTime(v string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(v))
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("--max-time needs a positive duration such as 10m or 90s, not %q", v)
	}
	return d, nil
}

// validateBudget checks max_turns, max_cost and max_time.
func (c Config) validateBudget() (string, error) {
	switch {
	case c.MaxTurns < 0:
		return "max_turns", fmt.Errorf("max_turns = %d: want a positive number of model calls", c.MaxTurns)
	case c.MaxCost < 0:
		return "max_cost", fmt.Errorf("max_cost = %g: want a positive amount of US dollars", c.MaxCost)
	}
	if d, err := time.ParseDuration(c.MaxTime); c.MaxTime != "" && (err != nil || d <= 0) {
		return "max_time", fmt.Errorf("max_time = %q: want a positive duration such as \"10m\"", c.MaxTime)
	}
	return "", nil
}

// describeBudget writes the budget rows of Describe.
func (s *Settings) describeBudget(row func(key, val string)) {
	turns, cost := "200", "none"
	if s.MaxTurns > 0 {
		turns = strconv.Itoa(s.MaxTurns)
	}
	if s.MaxCost > 0 {
		cost = fmt.Sprintf("$%g", s.MaxCost)
	}
	row("max_turns", turns)
	row("max_cost", cost)
	row("max_time", s.MaxTime)
}

// setFormat is --output-format F.
func (a *Args) setFormat(v string) error {
	switch v {
	case "text", "json", "stream-json":
		a.Format = v
		return nil
	}
	return fmt.Errorf("--output-format takes text, json or stream-json, not %q", v)
}
