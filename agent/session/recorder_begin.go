package session

// Begin creates a new session's file now, rather than on the first write,
// and returns its id, so that a run can name its session before it
// starts. A resumed session's id is returned as is. It returns "" and the
// error when nothing can be saved (later writes are then dropped).
func (r *Recorder) Begin() (string, error) {
	st, err := r.store()
	if st == nil {
		return "", err
	}
	return st.ID(), err
}
