// Package optstate holds the states of wire.Opt, so that the answer decoder
// (internal/jsondec) can recognise an Opt and set it without wire
// exporting more than its API.
//
// An Opt[T] is a struct of two fields, in this order: the value, of type T,
// and the state, of type [State]. No other type uses State, so a struct
// whose second field is a State is an Opt.
package optstate

import "reflect"

// State says whether an Opt is omitted, null or holds a value.
type State uint8

// The states of an Opt.
const (
	Omitted State = iota // the zero Opt: the field is absent
	Null                 // JSON null
	Value                // a value
)

// typeState is State's type.
var typeState = reflect.TypeFor[State]()

// Is reports whether t is a wire.Opt: a struct of two fields whose second
// is a State. Every package that treats an Opt apart asks this.
func Is(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.NumField() == 2 && t.Field(1).Type == typeState
}
