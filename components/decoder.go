package components

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/seed012df1e9/guildkit/internal/jsonscan"
)

// Components are decoded by the decoder below rather than by encoding/json:
// it walks the JSON once with the package's scanner, sets each field
// through a table built once per type, takes every string that needs no
// unescaping as a slice of one copy of the input, and keeps the members a
// type would drop (see keep.go) in the same pass. It follows encoding/json's
// rules where they apply: keys match fields case-insensitively and the last
// of repeated keys wins; null leaves a string, number or boolean field as it
// is and empties a pointer, slice, list or component; a string with escapes
// or invalid UTF-8 is unquoted as encoding/json unquotes it. The scanner checks
// the input as it reads it, so [Unmarshal] needs no json.Valid pass first:
// malformed input gives an error, never a panic.
//
// This decoder and internal/jsondec (which decodes the client's answers)
// share the scanner but stay two decoders, because their contracts differ:
// jsondec serves any answer type and declines whatever it does not handle,
// leaving it to encoding/json, while this one serves a closed set of types,
// all of which it must decode itself, keeps the members they drop, and
// reports errors with the component path.
//
// Strings decoded this way share the memory of the input's copy, so a
// decoded tree keeps that copy alive as long as any of its strings.

// kind is how the decoder sets one field.
type kind uint8

const (
	kindString    kind = iota + 1 // string types
	kindBool                      // bool
	kindInt                       // int types (int, ButtonStyle, ...)
	kindSnowflake                 // Snowflake: a decimal string or number
	kindOptInt                    // Opt[int]
	kindOptBool                   // Opt[bool]
	kindOptString                 // Opt[string]
	kindSpacing                   // SeparatorSpacing (an explicit 0 kept apart from unset)
	kindList                      // List
	kindComponent                 // Component
	kindObject                    // a sub-object held by value (UnfurledMediaItem)
	kindPointer                   // a pointer to a sub-object (*PartialEmoji)
	kindObjects                   // a slice of sub-objects ([]SelectOption, ...)
	kindInts                      // a slice of int types ([]ChannelType)
)

// field is one JSON member of a type.
type field struct {
	name  []byte
	key   []byte // `"name":`, for encoding
	omit  bool   // omitempty or omitzero: the zero value is left out
	index int
	kind  kind
}

// shape is what the decoder knows of one struct type.
type shape struct {
	fields []field
	known  *jsonscan.FieldSet // for the kept members
}

func (s *shape) field(key []byte) *field {
	for i := range s.fields {
		if bytes.EqualFold(key, s.fields[i].name) {
			return &s.fields[i]
		}
	}
	return nil
}

// shapes holds the shape of every component type and sub-object, built
// when the package is initialised and only read after.
var shapes = map[reflect.Type]*shape{}

func init() {
	for t := Type(0); t < 64; t++ {
		if c := newOfType(t); c != nil {
			buildShape(reflect.TypeOf(c).Elem())
		}
	}
}

var (
	typeSnowflake = reflect.TypeFor[Snowflake]()
	typeOptInt    = reflect.TypeFor[Opt[int]]()
	typeOptBool   = reflect.TypeFor[Opt[bool]]()
	typeOptString = reflect.TypeFor[Opt[string]]()
	typeList      = reflect.TypeFor[List]()
	typeComponent = reflect.TypeFor[Component]()
	typeSpacing   = reflect.TypeFor[SeparatorSpacing]()
)

// shapeOf returns the shape of struct type t.
func shapeOf(t reflect.Type) *shape { return shapes[t] }

func buildShape(t reflect.Type) *shape {
	if s, ok := shapes[t]; ok {
		return s
	}
	s := new(shape)
	shapes[t] = s // before the fields, for types that hold themselves
	for _, f := range jsonscan.Fields(t) {
		fd := field{
			name: []byte(f.Name), key: []byte(strconv.Quote(f.Name) + ":"), index: f.Index,
			kind: kindOf(f.Type), omit: f.Omit,
		}
		switch fd.kind { // a sub-object's shape is built with its holder's
		case kindObject:
			buildShape(f.Type)
		case kindPointer, kindObjects:
			buildShape(f.Type.Elem())
		case 0:
			panic("components: no decoder for field " + t.Name() + "." + f.Name + " of type " + f.Type.String())
		}
		s.fields = append(s.fields, fd)
	}
	if reflect.PointerTo(t).Implements(typeComponent) {
		s.known = jsonscan.FieldsOfType(t, "type")
	} else {
		s.known = jsonscan.FieldsOfType(t)
	}
	return s
}

func kindOf(t reflect.Type) kind {
	switch t {
	case typeSnowflake:
		return kindSnowflake
	case typeOptInt:
		return kindOptInt
	case typeOptBool:
		return kindOptBool
	case typeOptString:
		return kindOptString
	case typeList:
		return kindList
	case typeComponent:
		return kindComponent
	case typeSpacing:
		return kindSpacing
	}
	switch t.Kind() {
	case reflect.String:
		return kindString
	case reflect.Bool:
		return kindBool
	case reflect.Int, reflect.Int64, reflect.Int32:
		return kindInt
	case reflect.Struct:
		return kindObject
	case reflect.Pointer:
		if t.Elem().Kind() == reflect.Struct {
			return kindPointer
		}
	case reflect.Slice:
		switch t.Elem().Kind() {
		case reflect.Struct:
			return kindObjects
		case reflect.Int:
			return kindInts
		}
	}
	return 0
}

// decoder decodes one JSON input. b is the input and s one copy of it as a
// string; every []byte the decoder is handed is a slice of b.
type decoder struct {
	b     []byte
	s     string
	depth int // of the components open
}

// maxDepth bounds how deep components nest. The documents nest them three
// levels at most (a container, a row, a button); each level scans what it
// holds again, so a bound keeps the work linear in the input.
const maxDepth = 32

// errTooDeep is the error of components nested deeper than maxDepth.
var errTooDeep = fmt.Errorf("components nested deeper than %d levels", maxDepth)

func newDecoder(b []byte) *decoder { return &decoder{b: b, s: string(b)} }

// str returns the string a slice of d.b stands for, as a slice of d.s.
func (d *decoder) str(raw []byte) string {
	start := cap(d.b) - cap(raw)
	return d.s[start : start+len(raw)]
}

// component decodes one component, choosing its type by "type".
func (d *decoder) component(raw []byte) (Component, error) {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return nil, ErrNoType
	}
	t, found, err := peekType(raw)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, ErrNoType
	}
	if d.depth++; d.depth > maxDepth {
		return nil, errTooDeep
	}
	defer func() { d.depth-- }()
	c := newOfType(t)
	if c == nil {
		// peekType may have stopped at "type": the rest is checked here.
		if !jsonscan.Valid(raw) {
			return nil, jsonscan.ErrMalformed
		}
		return &Unknown{Raw: append(json.RawMessage(nil), raw...)}, nil
	}
	if err := d.object(raw, reflect.ValueOf(c).Elem(), c.keptRef()); err != nil {
		return nil, fmt.Errorf("components: %s: %w", t, err)
	}
	return c, nil
}

// list decodes a JSON array of components into l; null gives nil.
func (d *decoder) list(raw []byte, l *List) error {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		*l = nil
		return nil
	}
	n, err := count(raw)
	if err != nil {
		return err
	}
	out := make(List, 0, n)
	err = jsonscan.EachElement(raw, func(v []byte) error {
		c, err := d.component(v)
		if err != nil {
			return fmt.Errorf("[%d]: %w", len(out), err)
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return err
	}
	*l = out
	return nil
}

// count returns the number of elements of the JSON array raw, which
// reading them checks.
func count(raw []byte) (int, error) {
	i := jsonscan.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return 0, jsonscan.ErrMalformed
	}
	return jsonscan.CountElements(raw, i), nil
}

// object decodes the JSON object raw into the zero struct v, and keeps in
// k the members v's type drops.
func (d *decoder) object(raw []byte, v reflect.Value, k *kept) error {
	s := shapeOf(v.Type())
	var kb jsonscan.KeptBuilder
	err := jsonscan.EachMember(raw, func(key, member, value []byte) error {
		if s.known.Keeps(key, value) {
			kb.Add(member)
		}
		f := s.field(key)
		if f == nil {
			return nil
		}
		if err := d.value(value, v.Field(f.index), f); err != nil {
			if strings.HasPrefix(err.Error(), "[") {
				return fmt.Errorf("%s%w", f.name, err) // components[1]: ...
			}
			return fmt.Errorf("%s: %w", f.name, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	*k = kb.Kept()
	return nil
}

// subObject decodes the JSON object (or null) raw into v, a sub-object.
func (d *decoder) subObject(raw []byte, v reflect.Value) error {
	v.SetZero()
	if string(raw) == "null" {
		return nil
	}
	if raw[0] != '{' {
		return typeError(raw, v.Type())
	}
	return d.object(raw, v, v.Addr().Interface().(interface{ keptRef() *kept }).keptRef())
}

// value decodes raw, one JSON value, into the field v.
func (d *decoder) value(raw []byte, v reflect.Value, f *field) error {
	if len(raw) == 0 {
		return jsonscan.ErrMalformed
	}
	null := string(raw) == "null"
	switch f.kind {
	case kindString:
		if null {
			return nil
		}
		s, err := d.stringValue(raw)
		if err != nil {
			return err
		}
		v.SetString(s)
	case kindBool:
		switch string(raw) {
		case "true":
			v.SetBool(true)
		case "false":
			v.SetBool(false)
		case "null":
		default:
			return typeError(raw, v.Type())
		}
	case kindInt:
		if null {
			return nil
		}
		n, err := intValue(raw, v.Type())
		if err != nil {
			return err
		}
		v.SetInt(n)
	case kindSnowflake:
		return v.Addr().Interface().(*Snowflake).UnmarshalJSON(raw)
	case kindOptInt:
		o := v.Addr().Interface().(*Opt[int])
		if null {
			*o = Null[int]()
			return nil
		}
		n, err := intValue(raw, reflect.TypeFor[int]())
		if err != nil {
			return err
		}
		*o = Some(int(n))
	case kindOptBool:
		o := v.Addr().Interface().(*Opt[bool])
		switch string(raw) {
		case "true":
			*o = Some(true)
		case "false":
			*o = Some(false)
		case "null":
			*o = Null[bool]()
		default:
			return typeError(raw, reflect.TypeFor[bool]())
		}
	case kindOptString:
		o := v.Addr().Interface().(*Opt[string])
		if null {
			*o = Null[string]()
			return nil
		}
		s, err := d.stringValue(raw)
		if err != nil {
			return err
		}
		*o = Some(s)
	case kindSpacing:
		return v.Addr().Interface().(*SeparatorSpacing).UnmarshalJSON(raw)
	case kindList:
		if raw[0] != '[' && !null {
			return typeError(raw, v.Type())
		}
		return d.list(raw, v.Addr().Interface().(*List))
	case kindComponent:
		if null {
			v.SetZero()
			return nil
		}
		c, err := d.component(raw)
		if err != nil {
			return err
		}
		*v.Addr().Interface().(*Component) = c
	case kindObject:
		return d.subObject(raw, v)
	case kindPointer:
		if null {
			v.SetZero()
			return nil
		}
		p := reflect.New(v.Type().Elem())
		if err := d.subObject(raw, p.Elem()); err != nil {
			return err
		}
		v.Set(p)
	case kindObjects, kindInts:
		return d.slice(raw, v, f)
	}
	return nil
}

// slice decodes a JSON array (or null) into the slice v.
func (d *decoder) slice(raw []byte, v reflect.Value, f *field) error {
	if string(raw) == "null" {
		v.SetZero()
		return nil
	}
	if raw[0] != '[' {
		return typeError(raw, v.Type())
	}
	n, err := count(raw)
	if err != nil {
		return err
	}
	out := reflect.MakeSlice(v.Type(), n, n)
	i := 0
	err = jsonscan.EachElement(raw, func(e []byte) error {
		if i >= n {
			// count and EachElement disagree: never an index panic.
			return jsonscan.ErrMalformed
		}
		el := out.Index(i)
		var err error
		if f.kind == kindObjects {
			err = d.subObject(e, el)
		} else if string(e) != "null" {
			var n int64
			n, err = intValue(e, el.Type())
			el.SetInt(n)
		}
		if err != nil {
			return fmt.Errorf("[%d]: %w", i, err)
		}
		i++
		return nil
	})
	if err != nil {
		return err
	}
	v.Set(out)
	return nil
}

// stringValue returns the string the JSON string raw stands for: a slice of
// the input's copy when it needs no unescaping, else unquoted as encoding/json
// unquotes it, in one allocation.
func (d *decoder) stringValue(raw []byte) (string, error) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", typeError(raw, reflect.TypeFor[string]())
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return d.str(inner), nil
	}
	// raw was checked by the scanner: unquoting it cannot fail.
	b := jsonscan.AppendUnquoted(make([]byte, 0, 3*len(inner)), inner)
	return unsafe.String(unsafe.SliceData(b), len(b)), nil
}

// intValue parses the JSON number raw as an integer of type t.
func intValue(raw []byte, t reflect.Type) (int64, error) {
	if c := raw[0]; c != '-' && (c < '0' || c > '9') {
		return 0, typeError(raw, t)
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if bits := t.Bits(); err != nil || bits < 64 && (n < -1<<(bits-1) || n >= 1<<(bits-1)) {
		return 0, fmt.Errorf("cannot decode number %s as %s", truncate(string(raw), 32), t)
	}
	return n, nil
}

// typeError says that the JSON value raw cannot be decoded as type t.
func typeError(raw []byte, t reflect.Type) error {
	what := "number"
	switch raw[0] {
	case '"':
		what = "string"
	case '{':
		what = "object"
	case '[':
		what = "array"
	case 't', 'f':
		what = "boolean"
	case 'n':
		what = "null"
	}
	return fmt.Errorf("cannot decode a JSON %s as %s", what, t)
}

// decodeInto decodes the JSON object b (or null) into *p, a component or a
// sub-object, from its zero value, keeping in k what its type drops.
func decodeInto[T any](b []byte, p *T, k *kept) error {
	var zero T
	*p = zero
	if string(bytes.TrimSpace(b)) == "null" {
		return nil
	}
	return prefixed(newDecoder(b).object(b, reflect.ValueOf(p).Elem(), k))
}

// prefixed gives err the package's prefix when it has none anywhere yet.
func prefixed(err error) error {
	if err == nil || strings.Contains(err.Error(), "components: ") {
		return err
	}
	return fmt.Errorf("components: %w", err)
}
