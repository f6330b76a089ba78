package components

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/seed012df1e9/guildkit/internal/jsonscan"
)

// The decoder and the encoder are checked against encoding/json: for any
// valid JSON object and every component type and sub-object, the decoder
// fails when encoding/json fails, and otherwise gives the same value, kept
// members included; that value encodes to the same bytes both ways.

// decodeTypes are the types the decoder fills.
func decodeTypes() []reflect.Type {
	var ts []reflect.Type
	for t := range shapes {
		ts = append(ts, t)
	}
	return ts
}

// fastDecode is what UnmarshalJSON does for the type p points to.
func fastDecode(b []byte, p reflect.Value) error {
	p.Elem().SetZero()
	if strings.TrimSpace(string(b)) == "null" {
		return nil
	}
	k := p.Interface().(interface{ keptRef() *kept }).keptRef()
	return newDecoder(b).object(b, p.Elem(), k)
}

// refDecode decodes b into the struct p points to with encoding/json, as
// the package did before it had its own decoder: through a struct type with
// the same exported fields and no methods, the members holding a single
// component cut out and decoded on their own, and the kept members
// collected from the whole object.
func refDecode(b []byte, p reflect.Value) error {
	v := p.Elem()
	v.SetZero()
	if strings.TrimSpace(string(b)) == "null" {
		return nil
	}
	t := v.Type()
	var fields []reflect.StructField
	var index, single []int
	var singleNames []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Type == typeComponent {
			single = append(single, i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			singleNames = append(singleNames, name)
			continue
		}
		fields = append(fields, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag})
		index = append(index, i)
	}
	rest, cut, err := cutMembers(b, singleNames)
	if err != nil {
		return err
	}
	mirror := reflect.New(reflect.StructOf(fields))
	if err := json.Unmarshal(rest, mirror.Interface()); err != nil {
		return err
	}
	for j, i := range index {
		v.Field(i).Set(mirror.Elem().Field(j))
	}
	for j, i := range single {
		if raw := cut[j]; raw != nil && string(raw) != "null" {
			c, err := newDecoder(raw).component(raw)
			if err != nil {
				return err
			}
			*v.Field(i).Addr().Interface().(*Component) = c
		}
	}
	return p.Interface().(interface{ keptRef() *kept }).keptRef().Collect(b, shapeOf(t).known)
}

// cutMembers returns the object b without the members whose key matches one
// of keys (case-insensitively), and the value of the last such member of
// each key (nil when absent).
func cutMembers(b []byte, keys []string) ([]byte, [][]byte, error) {
	vals := make([][]byte, len(keys))
	rest := []byte{'{'}
	err := jsonscan.EachMember(b, func(key, member, value []byte) error {
		for k, name := range keys {
			if strings.EqualFold(string(key), name) {
				vals[k] = value
				return nil
			}
		}
		if len(rest) > 1 {
			rest = append(rest, ',')
		}
		rest = append(rest, member...)
		return nil
	})
	return append(rest, '}'), vals, err
}

// refEncode encodes the struct p points to with encoding/json, as the
// package did before it had its own encoder: through a struct type with the
// same exported fields, "type" first for a component, then the kept members
// whose key is not written.
func refEncode(p reflect.Value) ([]byte, error) {
	v := p.Elem()
	t := v.Type()
	var fields []reflect.StructField
	var index []int
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() {
			fields = append(fields, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag})
			index = append(index, i)
		}
	}
	mirror := reflect.New(reflect.StructOf(fields)).Elem()
	for j, i := range index {
		mirror.Field(j).Set(v.Field(i))
	}
	b, err := json.Marshal(mirror.Interface())
	if err != nil {
		return nil, err
	}
	if c, ok := p.Interface().(Component); ok {
		head := `{"type":` + strconv.Itoa(int(c.Type()))
		if len(b) > 2 {
			head += ","
		}
		b = append([]byte(head), b[1:]...)
	}
	out, err := p.Interface().(interface{ keptRef() *kept }).keptRef().Merge(b)
	if err != nil {
		return nil, err
	}
	// As encoding/json gives a MarshalJSON's output: compacted, HTML escaped.
	return json.Marshal(json.RawMessage(out))
}

func checkEncoderMatches(t *testing.T, p reflect.Value, data []byte) {
	t.Helper()
	got, err := json.Marshal(p.Interface())
	if err != nil {
		t.Fatalf("%s: encoding: %v", p.Elem().Type().Name(), err)
	}
	want, err := refEncode(p)
	if err != nil {
		t.Fatalf("%s: encoding/json: %v", p.Elem().Type().Name(), err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: encoder writes %s\nencoding/json writes %s\ninput: %s", p.Elem().Type().Name(), got, want, data)
	}
}

func checkDecoderMatches(t *testing.T, data []byte) {
	t.Helper()
	for _, typ := range decodeTypes() {
		fast, ref := reflect.New(typ), reflect.New(typ)
		errFast := fastDecode(data, fast)
		errRef := refDecode(data, ref)
		if (errFast == nil) != (errRef == nil) {
			t.Fatalf("%s: decoder error %v, encoding/json error %v\ninput: %s", typ.Name(), errFast, errRef, data)
		}
		if errFast == nil && !reflect.DeepEqual(fast.Interface(), ref.Interface()) {
			t.Fatalf("%s: decoder gives %#v\nencoding/json gives %#v\ninput: %s", typ.Name(), fast.Elem().Interface(), ref.Elem().Interface(), data)
		}
		if errFast == nil {
			checkEncoderMatches(t, fast, data)
		}
	}
}

// decoderCases are objects that touch each rule of the decoder.
var decoderCases = []string{
	`{"type":2,"style":1,"custom_id":"a","label":"caf\u00e9 \"q\"","url":"","emoji":{"id":"12","name":"x","animated":true,"new":1}}`,
	`{"type":2,"style":1,"LABEL":"upper","Label":"mixed","label":null,"disabled":false,"sku_id":"0"}`,
	"{\"type\":10,\"content\":\"bad \xff utf-8\",\"id\":7}",
	`{"type":3,"custom_id":"s","options":[{"label":"A","value":"a","default":true,"x":[]},null],"min_values":0,"max_values":null,"required":false,"disabled":true}`,
	`{"type":8,"custom_id":"c","channel_types":[0,2,null],"default_values":[{"id":5,"type":"channel"}]}`,
	`{"type":9,"components":[{"type":10,"content":"x"}],"accessory":{"type":11,"media":{"url":"u","height":null,"width":3,"placeholder":"p"},"description":null,"spoiler":false}}`,
	`{"type":12,"items":[{"media":{"url":"u"},"description":"d","spoiler":true}]}`,
	`{"type":13,"file":{"url":"attachment://a"},"name":"a","size":10}`,
	`{"type":14,"divider":false,"spacing":0}`,
	`{"type":14,"spacing":null}`,
	`{"type":17,"components":[],"accent_color":0,"spoiler":false}`,
	`{"type":18,"label":"L","description":"","component":{"type":23,"custom_id":"c","required":true}}`,
	`{"type":19,"custom_id":"f","min_values":1.5}`,
	`{"type":21,"custom_id":"r","options":[{"value":"v","label":"l"}],"required":"yes"}`,
	`{"type":22,"custom_id":"g","options":{},"min_values":-1}`,
	`{"type":4,"custom_id":"t","style":99999999999999999999}`,
	`{"type":1,"components":[{"type":2,"style":1,"custom_id":"a"},{"type":99,"x":1}]}`,
	`{"type":1,"components":5}`,
	`{"url":"u","proxy_url":"p","content_type":"image/png","attachment_id":"9"}`,
	`{"id":"1","type":"user"}`,
	`{"value":"v","label":"l","description":null,"default":false}`,
	`{"type":10,"content":"<a href=\"x\">&amp; \u2028 \u2029 \u0001 \b \f \t \u007f é 😀"}`,
	`{"type":10,"content":"\ud83d\ude00 \ud83d \ude00 \ud83d\u0041 \uDBFF\uDFFF line\nline \\ \/"}`,
	`{"typ\u0065":10,"c\u006fntent":"escaped keys"}`,
	"{\"type\":2,\"style\":1,\"custom_id\":\"a\",\"label\":\"\\\"q\\\" \xff\xc3\\n\"}",
	`{}`,
	`null`,
	`[]`,
	`"x"`,
}

func TestDecoderMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, c := range decoderCases {
		checkDecoderMatches(t, []byte(c))
	}
	for _, s := range []string{"", "plain", "\xff\xfe bad", "a\x00b", "<&>", "\u2028\u2029", "\"\\/", "\x7f", "é\xc3"} {
		checkStringMatches(t, s)
	}
	// A value built in Go, not decoded: invalid UTF-8 and HTML in fields.
	b := &Button{Style: ButtonPrimary, CustomID: "a\xffb", Label: "<b>&", Emoji: &PartialEmoji{Name: "\u2028"}}
	checkEncoderMatches(t, reflect.ValueOf(b), nil)
}

// checkStringMatches compares appendString with encoding/json's encoding
// of s.
func checkStringMatches(t *testing.T, s string) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := appendString(nil, s); !bytes.Equal(got, want) {
		t.Fatalf("appendString(%q) = %s, encoding/json writes %s", s, got, want)
	}
}

func FuzzDecoderMatchesEncodingJSON(f *testing.F) {
	for _, c := range decoderCases {
		f.Add([]byte(c))
	}
	names, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, n := range names {
		if b, err := os.ReadFile(n); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkStringMatches(t, string(data))
		if !json.Valid(data) {
			return
		}
		checkDecoderMatches(t, data)
	})
}

// TestDecodeDepthBound: components nested up to maxDepth levels decode;
// deeper ones are an error, found in time linear in the input.
func TestDecodeDepthBound(t *testing.T) {
	t.Parallel()
	nest := func(depth int) []byte {
		return []byte(strings.Repeat(`[{"type":17,"components":`, depth) + `[]` + strings.Repeat(`}]`, depth))
	}
	var l List
	if err := json.Unmarshal(nest(maxDepth), &l); err != nil {
		t.Fatalf("%d levels: %v", maxDepth, err)
	}
	for _, depth := range []int{maxDepth + 1, 4000} {
		err := json.Unmarshal(nest(depth), &l)
		if err == nil || !strings.Contains(err.Error(), "nested deeper than 32 levels") {
			t.Errorf("%d levels: error %v, want one saying they nest too deep", depth, err)
		}
	}
}
