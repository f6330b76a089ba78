// Package optstate holds the states of wire.Opt, so that the answer decoder
// (internal/jsondec) can recognise an Opt and set it without wire
// exporting more than its API.
//
// An Opt[T] is a struct of two fields, in this order: the value, of type T,
// and the state, of type [State]. No other type uses State, so a struct
// whose second field is a State is an Opt.
package optstate

// State says whether an Opt is omitted, null or holds a value.
type State uint8

// The states of an Opt.
const (
	Omitted State = iota // the zero Opt: the field is absent
	Null                 // JSON null
	Value                // a value
)
