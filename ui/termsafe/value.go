package termsafe

import "reflect"

// Strings returns a copy of v in which every string is made safe with Text:
// exported string fields of structs (unexported fields are copied as they
// are), elements of slices and arrays,
// map values, and values held in interfaces, at any depth. An error held
// in an interface is replaced by one whose Error() is the safe text and
// which unwraps to the original, so errors.Is and errors.As still work.
// Pointers, channels and functions are copied as they are, not followed.
// v itself is never modified.
//
// Front-ends pass every agent event through it on receipt, so that no
// event type, present or future, can carry raw control sequences to the
// screen.
func Strings[T any](v T) T {
	rv := reflect.ValueOf(&v).Elem()
	if out, changed := clean(rv); changed {
		rv.Set(out)
	}
	return v
}

var errorType = reflect.TypeFor[error]()

// clean returns v with its strings made safe, and whether anything changed
// (when not, the returned value is v itself and no copy was made).
func clean(v reflect.Value) (reflect.Value, bool) {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if Safe(s) {
			return v, false
		}
		out := reflect.New(v.Type()).Elem()
		out.SetString(Text(s))
		return out, true
	case reflect.Interface:
		return cleanInterface(v)
	case reflect.Struct:
		return cleanStruct(v)
	case reflect.Slice, reflect.Array:
		return cleanSeq(v)
	case reflect.Map:
		return cleanMap(v)
	}
	return v, false
}

func cleanInterface(v reflect.Value) (reflect.Value, bool) {
	if v.IsNil() {
		return v, false
	}
	if v.Type() == errorType {
		err := v.Interface().(error)
		if Safe(err.Error()) {
			return v, false
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(reflect.ValueOf(error(&safeError{msg: Text(err.Error()), err: err})))
		return out, true
	}
	inner, changed := clean(v.Elem())
	if !changed {
		return v, false
	}
	out := reflect.New(v.Type()).Elem()
	out.Set(inner)
	return out, true
}

func cleanStruct(v reflect.Value) (reflect.Value, bool) {
	var out reflect.Value
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		f, changed := clean(v.Field(i))
		if !changed {
			continue
		}
		if !out.IsValid() {
			out = reflect.New(v.Type()).Elem()
			out.Set(v) // a copy with every field, unexported ones too
		}
		out.Field(i).Set(f)
	}
	if !out.IsValid() {
		return v, false
	}
	return out, true
}

func cleanSeq(v reflect.Value) (reflect.Value, bool) {
	if v.Kind() == reflect.Slice && v.IsNil() {
		return v, false
	}
	var out reflect.Value
	for i := range v.Len() {
		e, changed := clean(v.Index(i))
		if !changed {
			continue
		}
		if !out.IsValid() {
			if v.Kind() == reflect.Slice {
				out = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
				reflect.Copy(out, v)
			} else {
				out = reflect.New(v.Type()).Elem()
				out.Set(v)
			}
		}
		out.Index(i).Set(e)
	}
	if !out.IsValid() {
		return v, false
	}
	return out, true
}

func cleanMap(v reflect.Value) (reflect.Value, bool) {
	if v.IsNil() {
		return v, false
	}
	out := reflect.MakeMapWithSize(v.Type(), v.Len())
	changed := false
	iter := v.MapRange()
	for iter.Next() {
		k, kc := clean(iter.Key())
		e, ec := clean(iter.Value())
		changed = changed || kc || ec
		out.SetMapIndex(k, e)
	}
	if !changed {
		return v, false
	}
	return out, true
}

// safeError is an error with a sanitised message that unwraps to the
// original.
type safeError struct {
	msg string
	err error
}

func (e *safeError) Error() string { return e.msg }
func (e *safeError) Unwrap() error { return e.err }
