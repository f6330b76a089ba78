package components

import (
	"bytes"
	"reflect"
	"strconv"

	"github.com/seed012df1e9/guildkit/internal/jsonscan"
)

// Components are encoded into one buffer with the tables the decoder uses
// (see decoder.go), rather than by encoding/json with one buffer per
// component and sub-object. The output is what encoding/json writes for the
// same struct ("type" first, fields in order, omitempty and omitzero
// honoured, strings escaped as it escapes them, HTML characters included),
// followed by the members decoding kept whose key the fields did not write
// (see keep.go); a test compares the two for every type.

// appendComponent appends the JSON of c to buf.
func appendComponent(buf []byte, c Component) []byte {
	if isNil(c) {
		return append(buf, "null"...)
	}
	if u, ok := c.(*Unknown); ok {
		if len(u.Raw) == 0 {
			return append(buf, "null"...)
		}
		return append(buf, u.Raw...)
	}
	buf = append(buf, `{"type":`...)
	buf = strconv.AppendInt(buf, int64(c.Type()), 10)
	return appendFields(buf, reflect.ValueOf(c).Elem(), *c.keptRef(), true)
}

// appendList appends the JSON array of l ([] when empty).
func appendList(buf []byte, l List) []byte {
	buf = append(buf, '[')
	for i, c := range l {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendComponent(buf, c)
	}
	return append(buf, ']')
}

// appendObject appends the JSON object of v, a sub-object.
func appendObject(buf []byte, v reflect.Value) []byte {
	buf = append(buf, '{')
	k := *v.Addr().Interface().(interface{ keptRef() *kept }).keptRef()
	return appendFields(buf, v, k, false)
}

// appendFields appends the members of the struct v, then the kept members
// whose key was not written, and the closing brace. more says whether a
// member was written before.
func appendFields(buf []byte, v reflect.Value, k kept, more bool) []byte {
	s := shapeOf(v.Type())
	var written uint64 // bit i: field i was written
	for i := range s.fields {
		f := &s.fields[i]
		fv := v.Field(f.index)
		if f.omit && omitted(fv, f.kind) {
			continue
		}
		if more {
			buf = append(buf, ',')
		}
		more = true
		buf = append(buf, f.key...)
		buf = appendValue(buf, fv, f)
		written |= 1 << i
	}
	if k != "" {
		_ = jsonscan.EachMember([]byte(k), func(key, member, _ []byte) error {
			for i := range s.fields {
				if written&(1<<i) != 0 && bytes.EqualFold(key, s.fields[i].name) {
					return nil
				}
			}
			if more {
				buf = append(buf, ',')
			}
			more = true
			buf = append(buf, member...)
			return nil
		})
	}
	return append(buf, '}')
}

// omitted reports whether a field tagged omitempty or omitzero leaves v out.
func omitted(v reflect.Value, k kind) bool {
	switch k {
	case kindOptInt:
		return v.Addr().Interface().(*Opt[int]).IsZero()
	case kindOptBool:
		return v.Addr().Interface().(*Opt[bool]).IsZero()
	case kindOptString:
		return v.Addr().Interface().(*Opt[string]).IsZero()
	case kindObjects, kindInts, kindList:
		return v.Len() == 0
	}
	return v.IsZero()
}

// appendValue appends the JSON of the field v.
func appendValue(buf []byte, v reflect.Value, f *field) []byte {
	switch f.kind {
	case kindString:
		return appendString(buf, v.String())
	case kindBool:
		return strconv.AppendBool(buf, v.Bool())
	case kindInt:
		return strconv.AppendInt(buf, v.Int(), 10)
	case kindSnowflake:
		buf = append(buf, '"')
		buf = strconv.AppendUint(buf, v.Uint(), 10)
		return append(buf, '"')
	case kindSpacing:
		return strconv.AppendInt(buf, int64(SeparatorSpacing(v.Int()).value()), 10)
	case kindOptInt:
		if n, ok := v.Addr().Interface().(*Opt[int]).Get(); ok {
			return strconv.AppendInt(buf, int64(n), 10)
		}
	case kindOptBool:
		if b, ok := v.Addr().Interface().(*Opt[bool]).Get(); ok {
			return strconv.AppendBool(buf, b)
		}
	case kindOptString:
		if s, ok := v.Addr().Interface().(*Opt[string]).Get(); ok {
			return appendString(buf, s)
		}
	case kindList:
		return appendList(buf, *v.Addr().Interface().(*List))
	case kindComponent:
		return appendComponent(buf, *v.Addr().Interface().(*Component))
	case kindObject:
		return appendObject(buf, v)
	case kindPointer:
		if v.IsNil() {
			break
		}
		return appendObject(buf, v.Elem())
	case kindObjects, kindInts:
		if v.IsNil() {
			break
		}
		buf = append(buf, '[')
		for i := range v.Len() {
			if i > 0 {
				buf = append(buf, ',')
			}
			if f.kind == kindObjects {
				buf = appendObject(buf, v.Index(i))
			} else {
				buf = strconv.AppendInt(buf, v.Index(i).Int(), 10)
			}
		}
		return append(buf, ']')
	}
	return append(buf, "null"...)
}

// appendString appends s as a JSON string, escaped as encoding/json escapes
// it by default (see jsonscan.AppendString).
func appendString(buf []byte, s string) []byte { return jsonscan.AppendString(buf, s) }
