package guildkit_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

// TestSharedTypeMethodsDocumented: go doc shows no methods for this
// package's aliases of wire's types, so the package documentation lists
// them with links; a method added to wire must be added to the list.
func TestSharedTypeMethodsDocumented(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	doc := strings.Join(strings.Fields(strings.ReplaceAll(string(src), "//", "")), " ")

	for name, typ := range map[string]reflect.Type{
		"Opt":             reflect.TypeFor[*guildkit.Opt[string]](), // the pointer's set holds UnmarshalJSON
		"Snowflake":       reflect.TypeFor[*guildkit.Snowflake](),
		"ChannelType":     reflect.TypeFor[*guildkit.ChannelType](),
		"ValidationError": reflect.TypeFor[*guildkit.ValidationError](),
		"FieldError":      reflect.TypeFor[*guildkit.FieldError](),
	} {
		assert.True(t, strings.Contains(doc, "["+name+"]"), "doc.go names %s", name)
		for i := range typ.NumMethod() {
			m := typ.Method(i).Name
			assert.True(t, strings.Contains(doc, "[wire."+name+"."+m+"]"), "doc.go lists %s.%s", name, m)
		}
		if typ.Elem().Kind() != reflect.Struct {
			continue
		}
		for i := range typ.Elem().NumField() {
			if f := typ.Elem().Field(i); f.IsExported() {
				assert.True(t, strings.Contains(doc, "[wire."+name+"."+f.Name+"]"), "doc.go lists the field %s.%s", name, f.Name)
			}
		}
	}
}
