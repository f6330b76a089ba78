package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"github.com/seed012df1e9/guildkit/internal/optstate"
)

// optState is shared with internal/optstate, through which the answer
// decoder recognises and sets an Opt (value first, state second).
type optState = optstate.State

const (
	optOmitted = optstate.Omitted
	optNull    = optstate.Null
	optValue   = optstate.Value
)

// Opt is an optional, nullable field of a request. It has three states:
//
//   - the zero Opt is omitted: the field is not sent at all;
//   - [Some](v) sends v;
//   - [Null]() sends JSON null, which for most fields means "clear it".
//
// Fields of type Opt are tagged `json:"name,omitzero"`, so an omitted Opt
// never reaches the wire. Its fields are unexported: an Opt is made only with
// Some or Null, so no half-set state exists. Decoding tells the three states
// apart as well: an absent key leaves the Opt omitted, null gives Null, and
// anything else gives Some.
type Opt[T any] struct {
	value T
	state optState
}

// Some returns an Opt that sends v.
func Some[T any](v T) Opt[T] { return Opt[T]{value: v, state: optValue} }

// Null returns an Opt that sends JSON null.
func Null[T any]() Opt[T] { return Opt[T]{state: optNull} }

// IsZero reports whether o is omitted. encoding/json's omitzero and
// go-querystring's omitempty use it to leave the field out.
func (o Opt[T]) IsZero() bool { return o.state == optOmitted }

// IsNull reports whether o sends null.
func (o Opt[T]) IsNull() bool { return o.state == optNull }

// IsSet reports whether o holds a value (it was made with Some).
func (o Opt[T]) IsSet() bool { return o.state == optValue }

// Get returns the value and true when o was made with Some, and the zero T
// and false otherwise.
func (o Opt[T]) Get() (T, bool) { return o.value, o.state == optValue }

// Or returns the value of o when it was made with Some, and def otherwise.
func (o Opt[T]) Or(def T) T {
	if o.state == optValue {
		return o.value
	}
	return def
}

// String formats o for messages: "<omitted>", "null", or the value with %v.
func (o Opt[T]) String() string {
	switch o.state {
	case optNull:
		return "null"
	case optValue:
		return fmt.Sprint(o.value)
	default:
		return "<omitted>"
	}
}

// MarshalJSON encodes the value, or null. An omitted Opt also encodes as null;
// tag the field omitzero so it is left out instead.
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if o.state != optValue {
		return []byte("null"), nil
	}
	return json.Marshal(o.value)
}

// UnmarshalJSON decodes null as [Null] and anything else as [Some].
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		var zero T
		*o = Opt[T]{value: zero, state: optNull}
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*o = Opt[T]{value: v, state: optValue}
	return nil
}

// errNullQuery is returned when a Null Opt is put in a query string, which has
// no way to say null.
var errNullQuery = errors.New("a query parameter cannot be null")

// EncodeValues adds the value to a query string (go-querystring's Encoder).
// An omitted Opt adds nothing; a Null one is an error.
func (o Opt[T]) EncodeValues(key string, v *url.Values) error {
	switch o.state {
	case optOmitted:
		return nil
	case optNull:
		return fmt.Errorf("%s: %w", key, errNullQuery)
	}
	switch x := any(o.value).(type) {
	case fmt.Stringer:
		v.Add(key, x.String())
	case bool:
		if x {
			v.Add(key, "true")
		} else {
			v.Add(key, "false")
		}
	default:
		v.Add(key, fmt.Sprint(x))
	}
	return nil
}
