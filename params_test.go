package guildkit_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pointerFieldExceptions lists ...Params fields that are bare pointers on
// purpose, as "Type.Field".
var pointerFieldExceptions = map[string]bool{}

// TestParamsFieldsAreOpts walks every exported ...Params struct in the
// package source: an Opt field must be tagged omitzero (or be excluded from
// the body with json:"-"), and no field may be a bare pointer.
func TestParamsFieldsAreOpts(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	seen := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !ts.Name.IsExported() || !strings.HasSuffix(ts.Name.Name, "Params") {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			seen++
			for _, fld := range st.Fields.List {
				for _, id := range fld.Names {
					where := ts.Name.Name + "." + id.Name
					tag := ""
					if fld.Tag != nil {
						tag, _ = strconv.Unquote(fld.Tag.Value)
					}
					jsonTag := reflect.StructTag(tag).Get("json")
					if isOpt(fld.Type) && reflect.StructTag(tag).Get("url") == "" && jsonTag != "-" {
						assert.Contains(t, jsonTag, ",omitzero", "%s: an Opt field must be tagged omitzero", where)
					}
					if _, ptr := fld.Type.(*ast.StarExpr); ptr && !pointerFieldExceptions[where] {
						t.Errorf("%s: a params field is an Opt or a plain value, not a pointer", where)
					}
				}
			}
			return true
		})
	}
	assert.Positive(t, seen)
}

func isOpt(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.IndexExpr:
		id, ok := x.X.(*ast.Ident)
		return ok && id.Name == "Opt"
	case *ast.IndexListExpr:
		id, ok := x.X.(*ast.Ident)
		return ok && id.Name == "Opt"
	}
	return false
}
