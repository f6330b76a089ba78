package guildkit

import (
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/seed012df1e9/guildkit/internal/optstate"
	"github.com/seed012df1e9/guildkit/wire"
)

// The query structs of the operations hold Opt fields tagged
// `url:"name,omitempty"`. appendQuery writes such a query itself, from a
// plan made once per type, with the bytes go-querystring and
// url.Values.Encode would give; any other field, and a Null Opt (an
// error), is left to go-querystring.

// queryField is one Opt field of a query struct.
type queryField struct {
	name  string
	index int
	kind  reflect.Kind // of the Opt's value: Bool, Int, Uint64 (Snowflake) or String
}

// queryPlans maps a query struct type to its fields sorted by name, as
// url.Values.Encode sorts them, or to nil when appendQuery cannot write it.
var queryPlans sync.Map // reflect.Type → []queryField

var typeSnowflake = reflect.TypeFor[wire.Snowflake]()

func queryPlanOf(t reflect.Type) []queryField {
	if p, ok := queryPlans.Load(t); ok {
		return p.([]queryField)
	}
	var plan []queryField
	ok := true
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("url"), ",")
		ft := f.Type
		if !f.IsExported() || name == "" || name == "-" || opts != "omitempty" ||
			!optstate.Is(ft) {
			ok = false
			break
		}
		kind := ft.Field(0).Type.Kind()
		switch vt := ft.Field(0).Type; {
		case vt == typeSnowflake:
			kind = reflect.Uint64
		case vt == reflect.TypeFor[bool](), vt == reflect.TypeFor[int](), vt == reflect.TypeFor[string]():
		default:
			ok = false
		}
		if !ok {
			break
		}
		plan = append(plan, queryField{name: name, index: i, kind: kind})
	}
	if !ok {
		plan = nil
	} else {
		slices.SortStableFunc(plan, func(a, b queryField) int { return strings.Compare(a.name, b.name) })
		if plan == nil {
			plan = []queryField{}
		}
	}
	queryPlans.Store(t, plan)
	return plan
}

// appendQuery appends the query of q, a query struct or a pointer to one,
// to b with a leading '?' (nothing for an empty query), and reports false,
// leaving b as it was, when go-querystring must encode it.
func appendQuery(b []byte, q any) ([]byte, bool) {
	v := reflect.ValueOf(q)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return b, true
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return b, false
	}
	plan := queryPlanOf(v.Type())
	if plan == nil {
		return b, false
	}
	start := len(b)
	for _, f := range plan {
		opt := v.Field(f.index)
		switch optstate.State(opt.Field(1).Uint()) {
		case optstate.Omitted:
			continue
		case optstate.Null:
			return b[:start], false // go-querystring reports it
		}
		if len(b) == start {
			b = append(b, '?')
		} else {
			b = append(b, '&')
		}
		b = append(b, url.QueryEscape(f.name)...)
		b = append(b, '=')
		switch value := opt.Field(0); f.kind {
		case reflect.Bool:
			b = strconv.AppendBool(b, value.Bool())
		case reflect.Int:
			b = strconv.AppendInt(b, value.Int(), 10)
		case reflect.Uint64:
			b = strconv.AppendUint(b, value.Uint(), 10)
		default:
			b = append(b, url.QueryEscape(value.String())...)
		}
	}
	return b, true
}
