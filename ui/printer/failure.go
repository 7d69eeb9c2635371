package printer

import (
	"io"
)

// Failure is a run that ended before its turn could start (a bad flag,
// an unknown session, a locked one, a start-up error): its exit code and
// reason, the error, and what is known of the run.
type Failure struct {
	ExitCode   int
	ExitReason string
	Message    string
	Model      string
	Version    string
}

// WriteFailure writes what a JSON format prints for f on w: with
// FormatJSON the result object alone, with FormatStreamJSON an "error"
// event and the "result" event that ends every stream; nothing in text
// mode. The result has is_error set and the fields of a turn at zero.
func WriteFailure(w io.Writer, format string, f Failure) error {
	r := &Result{ExitCode: f.ExitCode, ExitReason: f.ExitReason, Message: f.Message, IsError: true, Model: f.Model, Version: f.Version}
	var b []byte
	switch format {
	case FormatJSON:
		b = append(r.JSON(false), '\n')
	case FormatStreamJSON:
		ev, err := MarshalEvent(StartError{Error: f.Message, ExitCode: f.ExitCode})
		if err != nil {
			return err
		}
		b = append(append(ev, '\n'), append(r.JSON(true), '\n')...)
	default:
		return nil
	}
	_, err := w.Write(b)
	return err
}
