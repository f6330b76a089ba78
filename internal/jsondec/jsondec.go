// Package jsondec decodes JSON answers into Go values with far fewer
// allocations and less time than encoding/json, and with its results.
//
// [Decode] reads the input in one pass that checks it is JSON as it goes
// (with internal/jsonscan, the scanner the components decoder uses too)
// and sets fields through a table built once per type. Strings are copied
// into small chunks shared by many fields (one with escapes or bytes that
// are not UTF-8 unquoted into them as encoding/json unquotes it, with
// jsonscan.AppendUnquoted); the values pointer fields point
// to come from one slab per type and call, and []Snowflake fields from one
// slab, so a list of a thousand members costs about a hundred allocations
// instead of tens of thousands. An array's elements are read as they come
// into room kept between calls (per element type) and copied into a
// slice of their number at the array's end, so that no array is walked
// first to count its elements (only one whose elements take more than
// 256 KiB is). Nothing of the result refers to the input, which the caller
// may reuse once Decode returns; [DecodeAt] decodes a value where it lies
// in a larger input (the gateway's frame), in the caller's pass.
//
// Types with their own UnmarshalJSON that answers hold are decoded here
// without it, with the same result: wire.Opt (null, or any value this
// package decodes), wire.Snowflake and the types added with
// [DecodeAsDecimal] (guildkit.Permissions), and the types added with
// [DecodeKeeping] (the embed objects, which keep the members they drop).
// Two call their UnmarshalJSON, which does not go through encoding/json:
// time.Time (which reads its string itself) and components.List (the
// components decoder, on the same scanner). An embedded struct has its
// members promoted as encoding/json promotes them (the gateway's events
// embed guildkit.Member, Guild, Channel...). A map, an array, an interface,
// a []byte, an embedded pointer or unexported type, a ",string" option and
// a type with UnmarshalText are decoded by json.Unmarshal. And whenever the input is not one JSON value or does not fit the
// value (a type mismatch, a number out of range, an escaped snowflake),
// Decode reports it and leaves the value zero, so that the caller decodes
// it with encoding/json and gets exactly its result and error.
//
// # When it can go
//
// Go 1.27 put encoding/json on encoding/json/v2. Measured on the same
// machine (BenchmarkAnswerDecode in package guildkit, the twin benchmarks'
// answers), encoding/json on Go 1.27.0 decodes the realistic list of 1000
// members with 33,065 allocations in about 9.5 ms (46,021 and 27.6 ms on Go
// 1.26.8), where jsondec takes 110 allocations and about 6 ms; the
// realistic Get Guild answer with 276 allocations against 27; a message
// with 10 against 9; the all-null answers with 5 to 15 allocations against
// jsondec's 7 to 10. The cost left is one allocation per string and per
// pointer, and a nested decode for every type with an UnmarshalJSON (Opt,
// Permissions, Snowflake). This package can be deleted once the minimum Go
// version is 1.27 and all of these hold:
//
//   - Opt, Snowflake and Permissions implement encoding/json/v2's
//     UnmarshalerFrom (UnmarshalJSONFrom from a jsontext.Decoder), so that
//     a set field no longer re-enters the decoder;
//   - encoding/json decodes the realistic 1000-member answer within the
//     client's target (at most 1,200 allocations a call, which needs about
//     one allocation per member where it now takes 33) and no slower than
//     jsondec, as BenchmarkAnswerDecode and scripts/bench.sh show;
//   - the differential tests and fuzz targets here, run against the
//     decoding that replaces it, still pass (they pass on Go 1.27 today:
//     jsondec and encoding/json on v2 agree on every golden and realistic
//     answer and their variants).
//
// Until then the first two do not hold: v2 allocates every string and
// every pointer target on its own, and has no way to share them.
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
	"github.com/seed012df1e9/guildkit/internal/optstate"
	"github.com/seed012df1e9/guildkit/wire"
)

// Decode decodes data, one JSON value with nothing after it but white space,
// into v, a non-nil pointer to a zero value (as every answer the client
// decodes is), and reports whether it did. When it did not (data is not
// that, or does not fit v, or v is not such a pointer), v is left zero and
// the caller decodes data with encoding/json. The result does not refer to
// data.
func Decode(data []byte, v any) bool {
	end, ok := DecodeAt(data, jsonscan.SkipSpace(data, 0), 0, v)
	if ok && jsonscan.SkipSpace(data, end) != len(data) {
		reflect.ValueOf(v).Elem().SetZero()
		return false
	}
	return ok
}

// DecodeAt is Decode of the JSON value that starts at data[i], inside depth
// open arrays and objects of data (which count toward the nesting bound),
// with whatever follows it left unread: it returns the index after the
// value. A caller that reads data around the value (the gateway, its
// frame) decodes the value where it lies, in the same pass, instead of
// checking it first and decoding it after. When ok is false, v is left zero
// and end is 0.
func DecodeAt(data []byte, i, depth int, v any) (end int, ok bool) {
	return decodeAt(data, i, depth, v, nil)
}

// DecodeAtNoting is DecodeAt that also calls note with the key (unescaped)
// of each member of the object at data[i] as it reads it, its own members,
// not those of the values within: a caller that must know which members
// came (the gateway's MESSAGE_UPDATE) learns it in the same pass. note may
// have been called when ok is false.
func DecodeAtNoting(data []byte, i, depth int, v any, note func(key []byte)) (end int, ok bool) {
	return decodeAt(data, i, depth, v, note)
}

func decodeAt(data []byte, i, depth int, v any, note func(key []byte)) (end int, ok bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return 0, false
	}
	d := decoder{b: data, depth: depth, note: note, noteDepth: depth + 1}
	d.slabs = d.firstSlabs[:0]
	end, err := d.value(i, rv.Elem(), codecOf(rv.Type().Elem()))
	if d.scratch != nil {
		d.scratch.release()
	}
	if err != nil {
		rv.Elem().SetZero()
		return 0, false
	}
	return end, true
}

// errMismatch makes Decode decline, so that encoding/json decodes the input.
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
	kindOpt     // a wire.Opt: null, or its value
	kindDecimal // a uint64 sent as a decimal string or number, null for 0
	kindKeeping // a struct that keeps the members it drops (see DecodeKeeping)
)

// codec is what the decoder knows of one type.
type codec struct {
	kind   kind
	elem   *codec        // a pointer's or a slice's element
	fields []field       // struct fields
	empty  reflect.Value // a slice type's empty, non-nil slice, shared: its capacity is 0
	value  reflect.Type  // an Opt's value type
	keep   *jsonscan.FieldSet
	kept   int // the index of a kindKeeping struct's jsonscan.Kept field

	// A struct's fields by name, for field: byName when it has more than
	// a few (else they are compared in turn), byFold always, keyed by the
	// name in ASCII lower case, giving the first field that folds to it;
	// foldScan when a name is not ASCII, which byFold cannot fold as
	// bytes.EqualFold does.
	byName   map[string]int
	byFold   map[string]int
	foldScan bool

	typ reflect.Type // the type c is the codec of
	// firstSlab is the type of the first array of the slab of a
	// pointer's target (see alloc), made once rather than looked up per
	// call; nil when the codec was in use before a pointer to it was.
	firstSlab reflect.Type
}

type field struct {
	name  []byte
	via   []int // the embedded structs the field is promoted from, outermost first
	index int   // in the struct that declares it
	codec *codec
}

// of returns the field in v, a value of the struct type that lists f.
func (f *field) of(v reflect.Value) reflect.Value {
	for _, i := range f.via {
		v = v.Field(i)
	}
	return v.Field(f.index)
}

var (
	codecs   sync.Map   // reflect.Type → *codec, complete
	building sync.Mutex // held while codecs are built
)

var (
	typeUnmarshaler     = reflect.TypeFor[json.Unmarshaler]()
	typeTextUnmarshaler = reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()
	typeKept            = reflect.TypeFor[jsonscan.Kept]()
)

// decimals holds the types decoded as kindDecimal: wire.Snowflake and those
// added with DecodeAsDecimal. Guarded by building.
var decimals = map[reflect.Type]bool{reflect.TypeFor[wire.Snowflake](): true}

// keepings holds the types added with DecodeKeeping. Guarded by building.
var keepings = map[reflect.Type]*jsonscan.FieldSet{}

// DecodeKeeping makes Decode read t, a struct with a jsonscan.Kept field
// whose UnmarshalJSON is jsonscan.Decode with the field set fs (the embed
// objects), itself rather than through its UnmarshalJSON: its fields as
// encoding/json sets them, and the members fs says it drops kept as that
// UnmarshalJSON keeps them. Call it before t is decoded, in an init
// function.
func DecodeKeeping(t reflect.Type, fs *jsonscan.FieldSet) {
	building.Lock()
	defer building.Unlock()
	keepings[t] = fs
}

// DecodeAsDecimal makes Decode read t, an unsigned integer type whose
// UnmarshalJSON accepts a JSON string of decimal digits or a number and
// reads null as 0 (guildkit.Permissions), itself rather than through its
// UnmarshalJSON. Anything else such a value meets (an escaped string, a
// value out of range, another JSON type) makes Decode decline, so that
// encoding/json calls UnmarshalJSON and gives its error. Call it before t
// is decoded, in an init function.
func DecodeAsDecimal(t reflect.Type) {
	building.Lock()
	defer building.Unlock()
	decimals[t] = true
}

// codecOf returns the codec of t, building it (and those of the types it
// holds) on first use.
func codecOf(t reflect.Type) *codec {
	if c, ok := codecs.Load(t); ok {
		return c.(*codec)
	}
	building.Lock()
	defer building.Unlock()
	made := map[reflect.Type]*codec{}
	c := buildCodec(t, made)
	for t, c := range made {
		codecs.LoadOrStore(t, c)
	}
	return c
}

// buildCodec builds the codec of t into made, which holds those under way,
// for types that hold themselves.
func buildCodec(t reflect.Type, made map[reflect.Type]*codec) *codec {
	if c, ok := codecs.Load(t); ok {
		return c.(*codec)
	}
	if c, ok := made[t]; ok {
		return c
	}
	c := &codec{typ: t}
	made[t] = c
	pt := reflect.PointerTo(t)
	switch {
	case decimals[t] && t.Kind() == reflect.Uint64:
		c.kind = kindDecimal
	case optstate.Is(t):
		c.kind, c.value = kindOpt, t.Field(0).Type
		c.elem = buildCodec(c.value, made)
	case keepings[t] != nil:
		c.kind, c.keep, c.kept = kindKeeping, keepings[t], -1
		for i := range t.NumField() {
			if t.Field(i).Type == typeKept {
				c.kept = i
			}
		}
		if c.kept < 0 || !structFields(t, c, made) {
			c.kind, c.fields = kindUnmarshaler, nil
		}
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
			c.kind, c.elem = kindPointer, buildCodec(t.Elem(), made)
			if e := c.elem; made[t.Elem()] == e && e.firstSlab == nil {
				// Being built, so not yet read by any call: a codec
				// already in use is left as it is (alloc makes the
				// array type for it).
				e.firstSlab = reflect.ArrayOf(firstSlabLen(t.Elem()), t.Elem())
			}
		case reflect.Slice:
			if t.Elem().Kind() != reflect.Uint8 {
				c.kind, c.elem, c.empty = kindSlice, buildCodec(t.Elem(), made), reflect.MakeSlice(t, 0, 0)
			}
		case reflect.Struct:
			c.kind = kindStruct
			if !structFields(t, c, made) {
				c.kind, c.fields = kindFallback, nil
			}
		}
	}
	return c
}

// structFields fills c.fields for struct type t, or reports false for a
// struct this package leaves to encoding/json.
//
// The members of an embedded struct are promoted as encoding/json promotes
// them: a field named at a shallower depth hides those deeper, and of two
// at the same depth the one tagged wins, or neither when both or none are
// (the name is then ignored). Embedded pointers, unexported embedded types
// and embedded types that are not plain structs are left to encoding/json.
func structFields(t reflect.Type, c *codec, made map[reflect.Type]*codec) bool {
	var all []promoted
	if !collectFields(t, nil, 0, &all) {
		return false
	}
	byName := map[string][]int{} // name → indexes into all
	for i, p := range all {
		byName[p.f.Name] = append(byName[p.f.Name], i)
	}
	for i, p := range all {
		if !dominant(all, byName[p.f.Name], i) {
			continue
		}
		c.fields = append(c.fields, field{name: []byte(p.f.Name), via: p.via, index: p.f.Index, codec: buildCodec(p.f.Type, made)})
	}
	if len(c.fields) > fieldsScanned {
		c.byName = make(map[string]int, len(c.fields))
	}
	c.byFold = make(map[string]int, len(c.fields))
	for i, f := range c.fields {
		if c.byName != nil {
			c.byName[string(f.name)] = i
		}
		lower, ok := asciiLower(nil, f.name)
		if !ok {
			c.foldScan = true
		}
		if _, dup := c.byFold[string(lower)]; !dup && ok {
			c.byFold[string(lower)] = i
		}
	}
	return true
}

// fieldsScanned is the most fields a struct's codec finds by comparing
// names in turn, not by map.
const fieldsScanned = 8

// asciiLower appends b in ASCII lower case to buf; ok is false when b is
// not ASCII.
func asciiLower(buf, b []byte) (lower []byte, ok bool) {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return buf, false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf, true
}

// promoted is one field of a struct's JSON form, maybe promoted from an
// embedded struct.
type promoted struct {
	f      jsonscan.Field
	via    []int
	depth  int
	tagged bool // the JSON name comes from a tag
}

// collectFields appends the fields of struct type t, reached through the
// embedded fields via at depth, to all, in the order encoding/json lists
// them (by index sequence); it reports false for a struct left to
// encoding/json.
func collectFields(t reflect.Type, via []int, depth int, all *[]promoted) bool {
	if depth > 8 {
		return false
	}
	for _, f := range jsonscan.Fields(t) {
		if strings.Contains(f.Options, "string") {
			return false
		}
		sf := t.Field(f.Index)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if f.Embedded && name == "" {
			ft := sf.Type
			if ft.Kind() != reflect.Struct || !sf.IsExported() || !plainStruct(ft) {
				return false
			}
			if !collectFields(ft, append(via[:len(via):len(via)], f.Index), depth+1, all) {
				return false
			}
			continue
		}
		if f.Embedded && !sf.IsExported() {
			return false
		}
		*all = append(*all, promoted{f: f, via: via, depth: depth, tagged: name != ""})
	}
	return true
}

// plainStruct reports whether t, an embedded struct type, is decoded as a
// plain struct: none of the kinds this package or encoding/json treat
// apart.
func plainStruct(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return !decimals[t] && !optstate.Is(t) && keepings[t] == nil &&
		!pt.Implements(typeUnmarshaler) && !pt.Implements(typeTextUnmarshaler)
}

// dominant reports whether all[i] is the field its name decodes into, of
// the fields named alike (same, indexes into all): the shallowest, tagged
// before untagged; none when the first two tie.
func dominant(all []promoted, same []int, i int) bool {
	best, second := -1, -1
	less := func(a, b int) bool {
		if all[a].depth != all[b].depth {
			return all[a].depth < all[b].depth
		}
		return all[a].tagged && !all[b].tagged
	}
	for _, j := range same {
		switch {
		case best < 0 || less(j, best):
			best, second = j, best
		case second < 0 || less(j, second):
			second = j
		}
	}
	if second >= 0 && all[best].depth == all[second].depth && all[best].tagged == all[second].tagged {
		return false
	}
	return best == i
}

// decoder decodes one input, b.
type decoder struct {
	b             []byte
	strings       []byte // the unused part of the string chunk
	depth         int    // of the arrays and objects open
	slabs         []slab
	firstSlabs    [8]slab          // slabs' first array: most answers use fewer types
	snowflakes    []wire.Snowflake // the unused part of the snowflake slab
	snowflakeSlab int              // the size of the last snowflake slab
	keyAt         int              // where the key of the member being read starts
	key           []byte           // the last escaped key, unquoted
	scratch       *scratchSet      // taken by the first array that needs it
	note          func(key []byte) // called with each key of the objects at noteDepth
	noteDepth     int
}

// text returns b as a string, copied into the call's current string
// chunk. A chunk holds the strings of many fields in one allocation and is
// never written where a string already lies, so the strings stay as they
// are; chunks are small (see slabBytes).
func (d *decoder) text(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > cap(d.strings)-len(d.strings) {
		d.strings = make([]byte, 0, max(len(b), min(2*cap(d.strings), slabBytes), 512))
	}
	start := len(d.strings)
	d.strings = append(d.strings, b...)
	return unsafe.String(&d.strings[start], len(b))
}

// unquoted returns what the inside of a JSON string, b, which holds an
// escape or bytes that are not UTF-8, stands for (as encoding/json reads
// it), written into the call's current string chunk like text's strings:
// no allocation of its own.
func (d *decoder) unquoted(b []byte) string {
	if room := 3 * len(b); room > cap(d.strings)-len(d.strings) { // the most it can take
		d.strings = make([]byte, 0, max(room, min(2*cap(d.strings), slabBytes), 512))
	}
	start := len(d.strings)
	d.strings = jsonscan.AppendUnquoted(d.strings, b)
	if len(d.strings) == start {
		return ""
	}
	return unsafe.String(&d.strings[start], len(d.strings)-start)
}

// slabBytes bounds the size of a slab or a string chunk.
const slabBytes = 16 << 10

// slab hands out the values pointer fields of one type point to.
type slab struct {
	t     reflect.Type
	elems reflect.Value // the current slab, an array
	next  int           // its first unused element
}

// firstSlabLen is the length of the first array of a slab of t: a few of
// a small type, as an answer often has several pointers of one type (ids,
// hashes, timestamps).
func firstSlabLen(t reflect.Type) int { return max(1, min(4, 128/int(max(t.Size(), 1)))) }

// alloc returns a pointer to a new zero value of the type c is the codec
// of (a pointer's target), from that type's slab. Slabs grow 1, 2, 4, ...
// elements up to about 16 KiB, so that a value kept long after the call
// keeps little else alive.
func (d *decoder) alloc(c *codec) reflect.Value {
	t := c.typ
	i := 0
	for i < len(d.slabs) && d.slabs[i].t != t {
		i++
	}
	if i == len(d.slabs) {
		d.slabs = append(d.slabs, slab{t: t})
	}
	s := &d.slabs[i]
	if !s.elems.IsValid() || s.next == s.elems.Len() {
		// An array, not a slice: one allocation, no slice header beside it.
		var array reflect.Type
		switch {
		case s.elems.IsValid():
			array = reflect.ArrayOf(min(2*s.elems.Len(), max(1, slabBytes/int(max(t.Size(), 1)))), t)
		case c.firstSlab != nil:
			array = c.firstSlab
		default:
			array = reflect.ArrayOf(firstSlabLen(t), t)
		}
		s.elems, s.next = reflect.New(array).Elem(), 0
	}
	p := s.elems.Index(s.next).Addr()
	s.next++
	return p
}

// The scanner is jsonscan's: these name its functions on d.b.

func (d *decoder) ws(i int) int { return jsonscan.SkipSpace(d.b, i) }

func (d *decoder) literal(i int, lit string) (int, error) {
	end, err := jsonscan.SkipLiteral(d.b, i, lit)
	return end, mismatch(err)
}

func (d *decoder) str(i int) (end int, escaped bool, err error) {
	end, escaped, err = jsonscan.SkipString(d.b, i)
	return end, escaped, mismatch(err)
}

func (d *decoder) number(i int) (int, error) {
	end, err := jsonscan.SkipNumber(d.b, i)
	return end, mismatch(err)
}

func (d *decoder) skip(i int) (int, error) {
	end, err := jsonscan.SkipValue(d.b, i, d.depth)
	return end, mismatch(err)
}

// mismatch turns the scanner's error into errMismatch.
func mismatch(err error) error {
	if err != nil {
		return errMismatch
	}
	return nil
}

// members reads the object that starts at i ('{'), calling member with each
// key (unescaped) and the index of its value, which member reads; it
// returns the index after the object.
func (d *decoder) members(i int, member func(key []byte, at int) (int, error)) (int, error) {
	if d.depth++; d.depth > jsonscan.MaxDepth {
		return 0, errMismatch
	}
	defer func() { d.depth-- }()
	i = d.ws(i + 1)
	if i < len(d.b) && d.b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(d.b) || d.b[i] != '"' {
			return 0, errMismatch
		}
		end, escaped, err := d.str(i)
		if err != nil {
			return 0, err
		}
		d.keyAt = i
		key := d.b[i+1 : end-1]
		if escaped {
			// Unquoted into the decoder's key buffer: a key is matched, not
			// kept, so the next escaped key may reuse it.
			d.key = jsonscan.AppendUnquoted(d.key[:0], key)
			key = d.key
		}
		if d.note != nil && d.depth == d.noteDepth {
			d.note(key)
		}
		i = d.ws(end)
		if i >= len(d.b) || d.b[i] != ':' {
			return 0, errMismatch
		}
		if i, err = member(key, d.ws(i+1)); err != nil {
			return 0, err
		}
		i = d.ws(i)
		switch {
		case i < len(d.b) && d.b[i] == ',':
			i = d.ws(i + 1)
		case i < len(d.b) && d.b[i] == '}':
			return i + 1, nil
		default:
			return 0, errMismatch
		}
	}
}

// elements reads the array that starts at i ('['), calling element with
// each element's position in the array and index in the input, which
// element reads; it returns the index after the array.
func (d *decoder) elements(i int, element func(n, at int) (int, error)) (int, error) {
	if d.depth++; d.depth > jsonscan.MaxDepth {
		return 0, errMismatch
	}
	defer func() { d.depth-- }()
	i = d.ws(i + 1)
	if i < len(d.b) && d.b[i] == ']' {
		return i + 1, nil
	}
	for n := 0; ; n++ {
		var err error
		if i, err = element(n, i); err != nil {
			return 0, err
		}
		i = d.ws(i)
		switch {
		case i < len(d.b) && d.b[i] == ',':
			i = d.ws(i + 1)
		case i < len(d.b) && d.b[i] == ']':
			return i + 1, nil
		default:
			return 0, errMismatch
		}
	}
}

// value reads the JSON value that starts at i into v, whose codec is c, and
// returns the index after it.
func (d *decoder) value(i int, v reflect.Value, c *codec) (int, error) {
	if i >= len(d.b) {
		return 0, errMismatch
	}
	b := d.b
	null := b[i] == 'n'
	switch c.kind {
	case kindOpt:
		return d.opt(i, v, c)
	case kindDecimal:
		return d.decimal(i, v)
	case kindKeeping:
		return d.keeping(i, v, c)
	}
	if null && c.kind != kindUnmarshaler && c.kind != kindFallback {
		end, err := d.literal(i, "null")
		if err == nil && (c.kind == kindPointer || c.kind == kindSlice) {
			v.SetZero()
		}
		return end, err // null leaves a string, number, boolean or struct as it is
	}
	switch c.kind {
	case kindUnmarshaler:
		end, err := d.skip(i)
		if err != nil {
			return 0, err
		}
		return end, v.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(b[i:end])
	case kindString:
		if b[i] != '"' {
			return 0, errMismatch
		}
		end, escaped, err := d.str(i)
		if err != nil {
			return 0, err
		}
		if inner := b[i+1 : end-1]; !escaped && utf8.Valid(inner) {
			v.SetString(d.text(inner))
		} else {
			v.SetString(d.unquoted(inner))
		}
		return end, nil
	case kindBool:
		switch b[i] {
		case 't':
			v.SetBool(true)
			return d.literal(i, "true")
		case 'f':
			v.SetBool(false)
			return d.literal(i, "false")
		}
		return 0, errMismatch
	case kindInt, kindUint, kindFloat:
		end, err := d.number(i)
		if err != nil {
			return 0, err
		}
		return end, setNumber(v, c.kind, b[i:end])
	case kindPointer:
		if v.IsNil() {
			v.Set(d.alloc(c.elem))
		}
		return d.value(i, v.Elem(), c.elem)
	case kindSlice:
		return d.slice(i, v, c)
	case kindStruct:
		if b[i] != '{' {
			return 0, errMismatch
		}
		return d.members(i, func(key []byte, at int) (int, error) {
			f := c.field(key)
			if f == nil {
				return d.skip(at)
			}
			return d.value(at, f.of(v), f.codec)
		})
	default:
		end, err := d.skip(i)
		if err != nil {
			return 0, err
		}
		return end, json.Unmarshal(b[i:end], v.Addr().Interface())
	}
}

// opt reads the JSON value that starts at i into v, a wire.Opt whose codec
// is c, as Opt.UnmarshalJSON does: null makes it Null, anything else is
// decoded into a zero value and makes it hold that value.
func (d *decoder) opt(i int, v reflect.Value, c *codec) (int, error) {
	// The fields are unexported: set through their addresses (v is
	// addressable, being a field or an element of the value decoded).
	value := reflect.NewAt(c.value, unsafe.Pointer(v.Field(0).UnsafeAddr())).Elem()
	state := (*optstate.State)(unsafe.Pointer(v.Field(1).UnsafeAddr()))
	value.SetZero()
	if d.b[i] == 'n' {
		end, err := d.literal(i, "null")
		if err != nil {
			return 0, err
		}
		*state = optstate.Null
		return end, nil
	}
	end, err := d.value(i, value, c.elem)
	if err != nil {
		return 0, err
	}
	*state = optstate.Value
	return end, nil
}

// keeping reads the JSON value that starts at i into v, a kindKeeping
// struct, as jsonscan.Decode does: from v's zero value, null leaving it
// zero, and the members its field set keeps gathered in its Kept field.
func (d *decoder) keeping(i int, v reflect.Value, c *codec) (int, error) {
	v.SetZero()
	switch d.b[i] {
	case 'n':
		return d.literal(i, "null")
	case '{':
	default:
		return 0, errMismatch
	}
	var kb jsonscan.KeptBuilder
	end, err := d.members(i, func(key []byte, at int) (int, error) {
		start := d.keyAt
		var end int
		var err error
		if f := c.field(key); f == nil {
			end, err = d.skip(at)
		} else {
			end, err = d.value(at, f.of(v), f.codec)
		}
		if err == nil && c.keep.Keeps(key, d.b[at:end]) {
			kb.Add(d.b[start:end])
		}
		return end, err
	})
	if err != nil {
		return 0, err
	}
	kept := (*jsonscan.Kept)(unsafe.Pointer(v.Field(c.kept).UnsafeAddr()))
	*kept = kb.Kept()
	return end, nil
}

// decimal reads the JSON value that starts at i into v, a kindDecimal: a
// string of decimal digits without escapes, or a number, that fits 64 bits;
// null is 0.
func (d *decoder) decimal(i int, v reflect.Value) (int, error) {
	b := d.b
	var end int
	var digits []byte
	switch b[i] {
	case 'n':
		end, err := d.literal(i, "null")
		if err == nil {
			v.SetUint(0)
		}
		return end, err
	case '"':
		var escaped bool
		var err error
		if end, escaped, err = d.str(i); err != nil || escaped {
			return 0, errMismatch
		}
		digits = b[i+1 : end-1]
	default:
		var err error
		if end, err = d.number(i); err != nil {
			return 0, err
		}
		digits = b[i:end]
	}
	n, ok := ParseDecimal(digits)
	if !ok {
		return 0, errMismatch
	}
	v.SetUint(n)
	return end, nil
}

// ParseDecimal reads b, the digits of an unsigned decimal of at most 20
// digits, as a uint64; ok is false when b is empty, holds anything but
// digits, or overflows.
func ParseDecimal(b []byte) (v uint64, ok bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if v > (1<<64-1-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	return v, true
}

// setNumber sets v, an integer or a float, to the JSON number raw, as
// encoding/json does: an integer takes no fraction or exponent, and every
// value must fit.
func setNumber(v reflect.Value, k kind, raw []byte) error {
	switch k {
	case kindInt:
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || v.OverflowInt(n) {
			return errMismatch
		}
		v.SetInt(n)
	case kindUint:
		n, err := strconv.ParseUint(string(raw), 10, 64)
		if err != nil || v.OverflowUint(n) {
			return errMismatch
		}
		v.SetUint(n)
	default:
		f, err := strconv.ParseFloat(string(raw), v.Type().Bits())
		if err != nil || v.OverflowFloat(f) {
			return errMismatch
		}
		v.SetFloat(f)
	}
	return nil
}

// slice reads the JSON array that starts at i into the slice v, in one
// pass: the elements are read as they come into room that grows (the
// call's snowflake slab, or the scratch of their type), then the slice is
// made of their number, so that the array is not walked first to count
// them.
func (d *decoder) slice(i int, v reflect.Value, c *codec) (int, error) {
	if d.b[i] != '[' {
		return 0, errMismatch
	}
	if j := d.ws(i + 1); j < len(d.b) && d.b[j] == ']' {
		v.Set(c.empty) // [] is an empty slice, not nil
		return j + 1, d.enter()
	}
	if p, ok := v.Addr().Interface().(*[]wire.Snowflake); ok {
		return d.snowflakeSlice(i, p, c)
	}
	if d.scratch == nil {
		d.scratch = takeScratch()
	}
	sc := d.scratch.of(c.elem, v.Type().Elem())
	if sc == nil || v.Cap() > 0 {
		// An array of the same type holds this one, or the member came
		// twice: read into v, growing, as encoding/json does (into the
		// elements v has, which it merges into).
		n := 0
		end, err := d.elements(i, func(k, at int) (int, error) {
			if k >= v.Cap() {
				v.Grow(1)
			}
			if k >= v.Len() {
				v.SetLen(k + 1)
			}
			n = k + 1
			return d.value(at, v.Index(k), c.elem)
		})
		v.SetLen(n)
		return end, err
	}
	sc.busy = true
	n, direct := 0, false
	end, err := d.elements(i, func(k, at int) (int, error) {
		n = k + 1
		if !direct && !sc.room(n) {
			// More than the scratch holds: the array is counted (only
			// arrays this long are) and the rest read into v directly.
			total := jsonscan.CountElements(d.b, i)
			if total < n {
				return 0, errMismatch
			}
			makeLen(v, total)
			reflect.Copy(v, sc.buf.Slice(0, k))
			sc.clear(k)
			direct = true
		}
		if direct {
			if k >= v.Len() {
				return 0, errMismatch
			}
			return d.value(at, v.Index(k), c.elem)
		}
		return d.value(at, sc.buf.Index(k), c.elem)
	})
	if direct {
		return end, err
	}
	if err == nil {
		makeLen(v, n)
		reflect.Copy(v, sc.buf)
	}
	sc.clear(n)
	return end, err
}

// makeLen makes v, a nil slice, n zero elements long. It is grown in place:
// the field itself takes the new array, so no slice header is allocated
// beside it.
func makeLen(v reflect.Value, n int) {
	v.Grow(n)
	v.SetLen(n)
}

// enter checks that one more array or object fits within the nesting
// bound, as elements would.
func (d *decoder) enter() error {
	if d.depth+1 > jsonscan.MaxDepth {
		return errMismatch
	}
	return nil
}

// snowflakeSlice reads the array that starts at i into *p: role lists and
// the like, read into the call's snowflake slab, one for all.
func (d *decoder) snowflakeSlice(i int, p *[]wire.Snowflake, c *codec) (int, error) {
	s := d.snowflakes[:0]
	end, err := d.elements(i, func(k, at int) (int, error) {
		if k == len(d.snowflakes) {
			// The slab is used up: a new one, the elements read so far
			// moved to its start.
			d.snowflakeSlab = min(max(2*(k+1), 2*d.snowflakeSlab, 16), max(2*(k+1), slabBytes/8))
			d.snowflakes = make([]wire.Snowflake, d.snowflakeSlab)
			copy(d.snowflakes, s)
		}
		s = d.snowflakes[:k+1]
		return d.value(at, reflect.ValueOf(&s[k]).Elem(), c.elem)
	})
	if err != nil {
		return 0, err
	}
	n := len(s)
	*p = s[:n:n] // capped, so that appending to it never reaches into a neighbour
	d.snowflakes = d.snowflakes[n:]
	return end, nil
}

// scratchSet holds, per element type, the room the arrays of that type are
// read into before they are copied into a slice of their length. Kept
// between calls, so that reading an array costs one allocation, its slice,
// once warm.
type scratchSet struct {
	list []*scratch // pointers: a scratch in use stays where it is as the list grows
}

// freeScratch holds the scratch sets no call uses, every scratch zero and
// not busy: at most maxFreeScratch, each keeping at most maxKeptScratch
// bytes of room. A list rather than a sync.Pool, so that what a call
// allocates does not depend on the pool's choices (under the race detector
// a Pool drops what it is given at random, and the allocation bounds the
// tests check would not hold).
var freeScratch struct {
	sync.Mutex
	sets []*scratchSet
}

const (
	maxFreeScratch = 4
	maxKeptScratch = 1 << 20
)

// takeScratch returns a free scratch set, or a new one.
func takeScratch() *scratchSet {
	freeScratch.Lock()
	defer freeScratch.Unlock()
	if n := len(freeScratch.sets); n > 0 {
		s := freeScratch.sets[n-1]
		freeScratch.sets[n-1] = nil
		freeScratch.sets = freeScratch.sets[:n-1]
		return s
	}
	return new(scratchSet)
}

// scratch is the room of one element type.
type scratch struct {
	c    *codec
	t    reflect.Type
	buf  reflect.Value // a slice of t, zero beyond what the array being read holds
	busy bool          // an array is being read into buf
}

// maxScratchBytes bounds the room of one element type: an array whose
// elements take more is counted before it is read, as every array was.
const maxScratchBytes = 256 << 10

// of returns the scratch of the elements whose codec is c, of type t, or
// nil when it is busy (an array of t within an array of t).
func (s *scratchSet) of(c *codec, t reflect.Type) *scratch {
	for _, sc := range s.list {
		if sc.c == c {
			if sc.busy {
				return nil
			}
			return sc
		}
	}
	sc := &scratch{c: c, t: t}
	s.list = append(s.list, sc)
	return sc
}

// room makes buf hold at least n elements, keeping those it holds, or
// reports false when that would take it past maxScratchBytes.
func (sc *scratch) room(n int) bool {
	size := 4
	if sc.buf.IsValid() {
		if sc.buf.Len() >= n {
			return true
		}
		size = 2 * sc.buf.Len()
	}
	if size*int(sc.t.Size()) > maxScratchBytes && size > 4 {
		return false
	}
	buf := reflect.MakeSlice(reflect.SliceOf(sc.t), size, size)
	if sc.buf.IsValid() {
		reflect.Copy(buf, sc.buf)
	}
	sc.buf = buf
	return true
}

// clear zeroes the first n elements of buf, those an array was read into,
// and makes the scratch free again.
func (sc *scratch) clear(n int) {
	for k := range n {
		sc.buf.Index(k).SetZero()
	}
	sc.busy = false
}

// release gives s back for the next call, keeping at most maxKeptScratch
// bytes of its room.
func (s *scratchSet) release() {
	kept := 0
	for _, sc := range s.list {
		if sc.buf.IsValid() {
			if size := sc.buf.Len() * int(sc.t.Size()); kept+size <= maxKeptScratch {
				kept += size
			} else {
				sc.buf = reflect.Value{}
			}
		}
	}
	freeScratch.Lock()
	defer freeScratch.Unlock()
	if len(freeScratch.sets) < maxFreeScratch {
		freeScratch.sets = append(freeScratch.sets, s)
	}
}

// field returns the field key names: an exact match first, else one that
// matches case-insensitively, as encoding/json chooses.
func (c *codec) field(key []byte) *field {
	if c.byName != nil {
		if i, ok := c.byName[string(key)]; ok {
			return &c.fields[i]
		}
	} else {
		for i := range c.fields {
			if bytes.Equal(key, c.fields[i].name) {
				return &c.fields[i]
			}
		}
	}
	if !c.foldScan && len(key) <= 64 {
		var buf [64]byte
		if lower, ascii := asciiLower(buf[:0], key); ascii {
			// An ASCII key folds to an ASCII name as its lower case.
			if i, ok := c.byFold[string(lower)]; ok {
				return &c.fields[i]
			}
			return nil
		}
	}
	for i := range c.fields {
		if bytes.EqualFold(key, c.fields[i].name) {
			return &c.fields[i]
		}
	}
	return nil
}
