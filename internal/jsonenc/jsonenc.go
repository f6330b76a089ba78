// Package jsonenc encodes request bodies (the ...Params structs) with the
// bytes json.Marshal gives, without the allocation encoding/json makes for
// every Opt field: to honour omitzero it calls IsZero through an interface,
// which copies the Opt to the heap, and a set Opt costs as much again for
// MarshalJSON.
//
// [Marshal] writes a struct's fields itself from a plan made once per type:
// Opts of strings, booleans, integers and snowflakes, and fields of those
// kinds, with encoding/json's field names, order, embedding rules and
// omitempty and omitzero. Any other field value is encoded by json.Marshal,
// and any type whose plan it cannot make (a ",string" option, an embedded
// field of a kind it does not follow), and any error, by json.Marshal of
// the whole value, so the result and its errors are always encoding/json's.
// (Go 1.27's encoding/json writes invalid UTF-8 in a string as a raw U+FFFD
// where Go 1.26 and this package write \ufffd: the same JSON value.)
package jsonenc

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/seed012df1e9/guildkit/internal/jsonscan"
	"github.com/seed012df1e9/guildkit/internal/optstate"
	"github.com/seed012df1e9/guildkit/wire"
)

// Marshal returns the JSON encoding of v, as json.Marshal(v) returns it.
func Marshal(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return json.Marshal(v)
	}
	p := planOf(rv.Type())
	if p == nil {
		return json.Marshal(v)
	}
	// Room for a message with an embed, without growing.
	b, ok := p.append(make([]byte, 0, 512), rv)
	if !ok {
		return json.Marshal(v)
	}
	return b, nil
}

type kind uint8

const (
	kindOther     kind = iota // json.Marshal encodes it
	kindString                // a string kind without marshalling methods
	kindBool                  // a bool kind without marshalling methods
	kindInt                   // a signed integer kind without marshalling methods
	kindUint                  // an unsigned integer kind without marshalling methods
	kindSnowflake             // wire.Snowflake: a quoted decimal
	kindOpt                   // a wire.Opt: its value's kind is elem
	kindAppender              // a type given to Register: its appender writes it
	kindAppenders             // a slice of such a type
)

// appender writes the value at p, of the type it was registered for, or
// reports false for a value it leaves to json.Marshal.
type appender func(b []byte, p unsafe.Pointer) ([]byte, bool)

var appenders sync.Map // reflect.Type → appender

// Register makes [Marshal] write the fields of type T, and of type []T,
// with appendT instead of json.Marshal. appendT must write what
// json.Marshal writes for *v, or report false (json.Marshal of the whole
// value is used then). Register is called from init, before any Marshal.
func Register[T any](appendT func(b []byte, v *T) ([]byte, bool)) {
	appenders.Store(reflect.TypeFor[T](), appender(func(b []byte, p unsafe.Pointer) ([]byte, bool) {
		return appendT(b, (*T)(p))
	}))
}

// appenderOf returns the appender registered for t, or nil.
func appenderOf(t reflect.Type) appender {
	if a, ok := appenders.Load(t); ok {
		return a.(appender)
	}
	return nil
}

// field is one member of a struct's encoding.
type field struct {
	index     []int  // the path of struct fields to it, through embedded structs
	name      string // the JSON name
	nameBytes []byte // "name": as encoding/json writes it
	tagged    bool
	omitEmpty bool
	omitZero  bool
	kind      kind
	elem      kind         // an Opt's value kind
	value     reflect.Type // an Opt's value type
	app       appender     // the appender of a kindAppender(s) field
	isZeroer  bool         // the type has its own IsZero (omitzero calls it)
}

type plan struct{ fields []field }

var plans sync.Map // reflect.Type → *plan, or a nil *plan when there is none

func planOf(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p := makePlan(t)
	plans.Store(t, p)
	return p
}

var (
	typeMarshaler     = reflect.TypeFor[json.Marshaler]()
	typeTextMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	typeIsZeroer      = reflect.TypeFor[interface{ IsZero() bool }]()
	typeSnowflake     = reflect.TypeFor[wire.Snowflake]()
)

// kindOf returns how a value of type t is written.
func kindOf(t reflect.Type) kind {
	switch {
	case t == typeSnowflake:
		return kindSnowflake
	case optstate.Is(t):
		return kindOpt
	case appenderOf(t) != nil:
		return kindAppender
	case t.Kind() == reflect.Slice && t.Name() == "" && appenderOf(t.Elem()) != nil:
		return kindAppenders
	case t.Implements(typeMarshaler), reflect.PointerTo(t).Implements(typeMarshaler),
		t.Implements(typeTextMarshaler), reflect.PointerTo(t).Implements(typeTextMarshaler):
		return kindOther
	}
	switch t.Kind() {
	case reflect.String:
		return kindString
	case reflect.Bool:
		return kindBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return kindInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return kindUint
	}
	return kindOther
}

// makePlan lists the members of struct type t as encoding/json's typeFields
// does, or returns nil for a type it leaves to encoding/json.
func makePlan(t reflect.Type) *plan {
	if t.Implements(typeMarshaler) || reflect.PointerTo(t).Implements(typeMarshaler) ||
		t.Implements(typeTextMarshaler) || reflect.PointerTo(t).Implements(typeTextMarshaler) {
		return nil
	}
	var all []field
	if !collect(t, nil, map[reflect.Type]bool{}, &all) {
		return nil
	}
	// For each name, the shallowest field wins; of two at that depth, the
	// tagged one; two alike cancel each other (encoding/json's
	// dominantField).
	slices.SortStableFunc(all, func(a, b field) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if len(a.index) != len(b.index) {
			return len(a.index) - len(b.index)
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	var out []field
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].name == all[i].name {
			j++
		}
		if j-i == 1 || len(all[i].index) != len(all[i+1].index) || all[i].tagged != all[i+1].tagged {
			out = append(out, all[i])
		}
		i = j
	}
	slices.SortFunc(out, func(a, b field) int { return slices.Compare(a.index, b.index) })
	for i := range out {
		name, _ := json.Marshal(out[i].name)
		out[i].nameBytes = append(name, ':')
	}
	return &plan{fields: out}
}

// collect adds the members of struct type t, reached through index, to
// out, and reports false for a struct this package leaves to encoding/json.
func collect(t reflect.Type, index []int, seen map[reflect.Type]bool, out *[]field) bool {
	if seen[t] {
		return false // a type embedded twice: left to encoding/json
	}
	seen[t] = true
	defer delete(seen, t)
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		tagged := name != ""
		path := append(slices.Clip(index), i)
		if sf.Anonymous && !sf.IsExported() {
			return false
		}
		if sf.Anonymous && name == "" {
			et := sf.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() != reflect.Struct || kindOf(et) == kindOpt ||
				et.Implements(typeMarshaler) || reflect.PointerTo(et).Implements(typeMarshaler) ||
				et.Implements(typeTextMarshaler) || reflect.PointerTo(et).Implements(typeTextMarshaler) {
				return false
			}
			if !collect(et, path, seen, out) {
				return false
			}
			continue
		}
		if !sf.IsExported() {
			continue
		}
		for opt := range strings.SplitSeq(opts, ",") {
			if opt == "string" {
				return false
			}
		}
		if name == "" {
			name = sf.Name
		} else if !validTag(name) {
			return false
		}
		f := field{
			index: path, name: name, tagged: tagged,
			omitEmpty: hasOption(opts, "omitempty"), omitZero: hasOption(opts, "omitzero"),
			kind: kindOf(sf.Type), isZeroer: sf.Type.Implements(typeIsZeroer),
		}
		switch f.kind {
		case kindOpt:
			f.value = sf.Type.Field(0).Type
			f.elem = kindOf(f.value)
		case kindAppender:
			f.app = appenderOf(sf.Type)
		case kindAppenders:
			f.app = appenderOf(sf.Type.Elem())
		}
		if f.omitZero && f.kind != kindOpt && (!f.isZeroer && reflect.PointerTo(sf.Type).Implements(typeIsZeroer) ||
			f.isZeroer && sf.Type.Kind() == reflect.Interface) {
			return false // IsZero on the pointer, or in an interface: left to encoding/json
		}
		*out = append(*out, f)
	}
	return true
}

func hasOption(opts, name string) bool {
	for opt := range strings.SplitSeq(opts, ",") {
		if opt == name {
			return true
		}
	}
	return false
}

// validTag reports whether name is a JSON name encoding/json takes as it
// is; others (which it may replace by the Go name) are left to it.
func validTag(name string) bool {
	for _, c := range name {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// append writes the struct v, or reports false for a value it leaves to
// json.Marshal (a field json.Marshal failed on).
func (p *plan) append(b []byte, v reflect.Value) ([]byte, bool) {
	b = append(b, '{')
	first := true
	for i := range p.fields {
		f := &p.fields[i]
		fv, ok := fieldByIndex(v, f.index)
		if !ok {
			continue // behind a nil embedded pointer
		}
		if f.kind == kindOpt {
			state := optstate.State(fv.Field(1).Uint())
			if state == optstate.Omitted && f.omitZero {
				continue
			}
			// omitempty has no effect on a struct.
			b = member(b, f, &first)
			if state != optstate.Value {
				b = append(b, "null"...)
				continue
			}
			if b, ok = appendValue(b, f.elem, optValue(fv, f.value), false); !ok {
				return nil, false
			}
			continue
		}
		if f.omitEmpty && isEmpty(fv) || f.omitZero && isZero(fv, f.isZeroer) {
			continue
		}
		b = member(b, f, &first)
		switch f.kind {
		case kindAppender:
			b, ok = appendWith(b, f.app, fv)
		case kindAppenders:
			b, ok = appendSlice(b, f.app, fv)
		default:
			b, ok = appendValue(b, f.kind, fv, true)
		}
		if !ok {
			return nil, false
		}
	}
	return append(b, '}'), true
}

// appendWith writes v with its type's appender, from a copy when v has no
// address.
func appendWith(b []byte, app appender, v reflect.Value) ([]byte, bool) {
	if !v.CanAddr() {
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		v = c
	}
	return app(b, v.Addr().UnsafePointer())
}

// appendSlice writes the slice v, whose elements app writes, as
// encoding/json writes a slice: null when nil.
func appendSlice(b []byte, app appender, v reflect.Value) ([]byte, bool) {
	if v.IsNil() {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	ok := true
	for i := range v.Len() {
		if i > 0 {
			b = append(b, ',')
		}
		// A slice's elements always have an address.
		if b, ok = app(b, v.Index(i).Addr().UnsafePointer()); !ok {
			return nil, false
		}
	}
	return append(b, ']'), true
}

// member writes the separator and the name of f.
func member(b []byte, f *field, first *bool) []byte {
	if !*first {
		b = append(b, ',')
	}
	*first = false
	return append(b, f.nameBytes...)
}

// fieldByIndex returns the field of v at index, or false when an embedded
// pointer on the way is nil.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for k, i := range index {
		if k > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(i)
	}
	return v, true
}

// optValue returns the value of the Opt o, whose value type is t.
func optValue(o reflect.Value, t reflect.Type) reflect.Value {
	f := o.Field(0)
	if f.CanAddr() {
		return reflect.NewAt(t, unsafe.Pointer(f.UnsafeAddr())).Elem()
	}
	c := reflect.New(o.Type()).Elem()
	c.Set(o)
	return reflect.NewAt(t, unsafe.Pointer(c.Field(0).UnsafeAddr())).Elem()
}

// appendValue writes v, of kind k. A value of another kind is encoded by
// json.Marshal: through its address when inPlace and it has one, as
// encoding/json encodes a field (methods on the pointer apply), else as a
// copy, as Opt.MarshalJSON encodes its value.
func appendValue(b []byte, k kind, v reflect.Value, inPlace bool) ([]byte, bool) {
	switch k {
	case kindString:
		return jsonscan.AppendString(b, v.String()), true
	case kindBool:
		return strconv.AppendBool(b, v.Bool()), true
	case kindInt:
		return strconv.AppendInt(b, v.Int(), 10), true
	case kindUint:
		return strconv.AppendUint(b, v.Uint(), 10), true
	case kindSnowflake:
		b = append(b, '"')
		b = strconv.AppendUint(b, v.Uint(), 10)
		return append(b, '"'), true
	}
	// Encoded as the field would be in place: through its address when it
	// has one, so that methods on the pointer apply as they would.
	var x any
	if inPlace && v.CanAddr() {
		x = v.Addr().Interface()
	} else {
		x = v.Interface()
	}
	enc, err := json.Marshal(x)
	if err != nil {
		return nil, false
	}
	return append(b, enc...), true
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// isZero is encoding/json's omitzero test: the type's own IsZero when it
// has one, else the zero value.
func isZero(v reflect.Value, isZeroer bool) bool {
	if !isZeroer {
		return v.IsZero()
	}
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return true
	}
	return v.Interface().(interface{ IsZero() bool }).IsZero()
}
