// Package jsondec decodes JSON answers into Go values with far fewer
// allocations than encoding/json, and with its results.
//
// [Owned] walks the input once with the jsonscan scanner and sets fields
// through a table built once per type. Strings without escapes are not
// copied: they alias the input, which the caller hands over and never
// writes again. The values pointer fields point to come from one slab per
// type and call, so a list of a thousand members costs a few dozen
// allocations instead of several thousand.
//
// Whatever it does not handle itself it leaves to encoding/json: a type with
// its own UnmarshalJSON (Opt, Snowflake, time.Time, ...) decodes itself; a
// map, an array, an interface, a []byte, a struct with embedded fields or a
// ",string" option is decoded by json.Unmarshal. And whenever the input does
// not fit the value (a type mismatch, a number out of range), the whole
// input is decoded again by json.Unmarshal, so that errors, and what is
// left in the value beside them, are exactly encoding/json's.
package jsondec

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/seed012df1e9/guildkit/internal/jsonscan"
	"github.com/seed012df1e9/guildkit/wire"
)

// Owned decodes data, one valid JSON value, into v, a non-nil pointer to a
// zero value (as every answer the client decodes is). Strings of the result
// may share data's memory: the caller must not write to data afterwards,
// and the whole of data stays alive while any of them is in use.
func Owned(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return json.Unmarshal(data, v)
	}
	d := decoder{b: data, s: unsafe.String(unsafe.SliceData(data), len(data))}
	if err := d.value(bytes.TrimSpace(data), rv.Elem()); err != nil {
		rv.Elem().SetZero()
		return json.Unmarshal(data, v)
	}
	return nil
}

// errMismatch makes Owned hand the whole input to encoding/json.
var errMismatch = errors.New("jsondec: input does not fit the value")

type kind uint8

const (
	kindFallback    kind = iota // json.Unmarshal decodes the value
	kindUnmarshaler             // the type's own UnmarshalJSON
	kindString
	kindBool
	kindInt
	kindUint
	kindFloat
	kindPointer
	kindSlice
	kindStruct
)

// codec is what the decoder knows of one type.
type codec struct {
	kind   kind
	fields []field       // struct fields
	empty  reflect.Value // a slice type's empty, non-nil slice, shared: its capacity is 0
}

type field struct {
	name  []byte
	index int
}

var codecs sync.Map // reflect.Type → *codec

var (
	typeUnmarshaler     = reflect.TypeFor[json.Unmarshaler]()
	typeTextUnmarshaler = reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()
)

// codecOf returns the codec of t, building it on first use.
func codecOf(t reflect.Type) *codec {
	if c, ok := codecs.Load(t); ok {
		return c.(*codec)
	}
	c, _ := codecs.LoadOrStore(t, buildCodec(t))
	return c.(*codec)
}

func buildCodec(t reflect.Type) *codec {
	c := new(codec)
	pt := reflect.PointerTo(t)
	switch {
	case t.Kind() != reflect.Pointer && pt.Implements(typeUnmarshaler):
		c.kind = kindUnmarshaler
	case t.Kind() != reflect.Pointer && pt.Implements(typeTextUnmarshaler):
		c.kind = kindFallback
	default:
		switch t.Kind() {
		case reflect.String:
			c.kind = kindString
		case reflect.Bool:
			c.kind = kindBool
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			c.kind = kindInt
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			c.kind = kindUint
		case reflect.Float32, reflect.Float64:
			c.kind = kindFloat
		case reflect.Pointer:
			c.kind = kindPointer
		case reflect.Slice:
			if t.Elem().Kind() != reflect.Uint8 {
				c.kind, c.empty = kindSlice, reflect.MakeSlice(t, 0, 0)
			}
		case reflect.Struct:
			c.kind = kindStruct
			if !structFields(t, c) {
				c.kind, c.fields = kindFallback, nil
			}
		}
	}
	return c
}

// structFields fills c.fields for struct type t, or reports false for a
// struct this package leaves to encoding/json.
func structFields(t reflect.Type, c *codec) bool {
	for _, f := range jsonscan.Fields(t) {
		if f.Embedded || strings.Contains(f.Options, "string") {
			return false
		}
		c.fields = append(c.fields, field{name: []byte(f.Name), index: f.Index})
	}
	return true
}

// decoder decodes one input; s is b as a string, sharing its memory.
type decoder struct {
	b             []byte
	s             string
	slabs         []slab
	snowflakes    []wire.Snowflake // the unused part of the snowflake slab
	snowflakeSlab int              // the size of the last snowflake slab
}

// takeSnowflakes returns n zero snowflakes from the call's slab, capped at n so
// that appending to them never reaches into a neighbour.
func (d *decoder) takeSnowflakes(n int) []wire.Snowflake {
	if len(d.snowflakes) < n {
		d.snowflakeSlab = min(max(n, 2*d.snowflakeSlab, 16), max(n, 4096))
		d.snowflakes = make([]wire.Snowflake, d.snowflakeSlab)
	}
	s := d.snowflakes[:n:n]
	d.snowflakes = d.snowflakes[n:]
	return s
}

// slab hands out the values pointer fields of one type point to.
type slab struct {
	t     reflect.Type
	elems reflect.Value // the current slab, a slice
	next  int           // its first unused element
}

// alloc returns a pointer to a new zero value of type t, from t's slab.
// Slabs grow 1, 2, 4, ... up to 1024 elements.
func (d *decoder) alloc(t reflect.Type) reflect.Value {
	i := 0
	for i < len(d.slabs) && d.slabs[i].t != t {
		i++
	}
	if i == len(d.slabs) {
		d.slabs = append(d.slabs, slab{t: t})
	}
	s := &d.slabs[i]
	if !s.elems.IsValid() || s.next == s.elems.Len() {
		n := 1
		if s.elems.IsValid() {
			n = min(2*s.elems.Len(), 1024)
		}
		s.elems, s.next = reflect.MakeSlice(reflect.SliceOf(t), n, n), 0
	}
	p := s.elems.Index(s.next).Addr()
	s.next++
	return p
}

// str returns the string the slice raw of d.b stands for.
func (d *decoder) str(raw []byte) string {
	start := cap(d.b) - cap(raw)
	return d.s[start : start+len(raw)]
}

// value decodes the JSON value raw into v.
func (d *decoder) value(raw []byte, v reflect.Value) error {
	if len(raw) == 0 {
		return errMismatch
	}
	c := codecOf(v.Type())
	null := raw[0] == 'n'
	switch c.kind {
	case kindUnmarshaler:
		return v.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(raw)
	case kindString:
		if null {
			return nil
		}
		if raw[0] != '"' {
			return errMismatch
		}
		inner := raw[1 : len(raw)-1]
		if bytes.IndexByte(inner, '\\') >= 0 || !utf8.Valid(inner) {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return err
			}
			v.SetString(s)
			return nil
		}
		v.SetString(d.str(inner))
	case kindBool:
		switch raw[0] {
		case 't':
			v.SetBool(true)
		case 'f':
			v.SetBool(false)
		case 'n':
		default:
			return errMismatch
		}
	case kindInt:
		if null {
			return nil
		}
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || v.OverflowInt(n) {
			return errMismatch
		}
		v.SetInt(n)
	case kindUint:
		if null {
			return nil
		}
		n, err := strconv.ParseUint(string(raw), 10, 64)
		if err != nil || v.OverflowUint(n) {
			return errMismatch
		}
		v.SetUint(n)
	case kindFloat:
		if null {
			return nil
		}
		if raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
			return errMismatch
		}
		f, err := strconv.ParseFloat(string(raw), v.Type().Bits())
		if err != nil || v.OverflowFloat(f) {
			return errMismatch
		}
		v.SetFloat(f)
	case kindPointer:
		if null {
			v.SetZero()
			return nil
		}
		if v.IsNil() {
			v.Set(d.alloc(v.Type().Elem()))
		}
		return d.value(raw, v.Elem())
	case kindSlice:
		return d.slice(raw, v)
	case kindStruct:
		return d.object(raw, v, c)
	default:
		return json.Unmarshal(raw, v.Addr().Interface())
	}
	return nil
}

// slice decodes a JSON array (or null) into the slice v.
func (d *decoder) slice(raw []byte, v reflect.Value) error {
	if raw[0] == 'n' {
		v.SetZero()
		return nil
	}
	if raw[0] != '[' {
		return errMismatch
	}
	n := 0
	if err := jsonscan.EachElement(raw, func([]byte) error { n++; return nil }); err != nil {
		return err
	}
	if n == 0 {
		v.Set(codecOf(v.Type()).empty) // [] is an empty slice, not nil
		return nil
	}
	if p, ok := v.Addr().Interface().(*[]wire.Snowflake); ok {
		*p = d.takeSnowflakes(n) // role lists and the like: one slab for all
	} else {
		// Grown in place: the field itself takes the new array, so no
		// slice header is allocated beside it.
		v.SetLen(0)
		v.Grow(n)
		v.SetLen(n)
	}
	i := 0
	return jsonscan.EachElement(raw, func(e []byte) error {
		err := d.value(e, v.Index(i))
		i++
		return err
	})
}

// object decodes a JSON object (or null) into the struct v.
func (d *decoder) object(raw []byte, v reflect.Value, c *codec) error {
	if raw[0] == 'n' {
		return nil
	}
	if raw[0] != '{' {
		return errMismatch
	}
	return jsonscan.EachMember(raw, func(key, _, value []byte) error {
		f := c.field(key)
		if f == nil {
			return nil
		}
		return d.value(value, v.Field(f.index))
	})
}

// field returns the field key names: an exact match first, else one that
// matches case-insensitively, as encoding/json chooses.
func (c *codec) field(key []byte) *field {
	for i := range c.fields {
		if bytes.Equal(key, c.fields[i].name) {
			return &c.fields[i]
		}
	}
	for i := range c.fields {
		if bytes.EqualFold(key, c.fields[i].name) {
			return &c.fields[i]
		}
	}
	return nil
}
