package guildkit_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestResponseFieldsSayTheirShape holds the rule of the package doc: every
// pointer or Opt field of an object the service answers with says in its
// comment what nil or the zero Opt means, and what it says matches the
// field's JSON tag (a pointer with omitempty may be absent; one without is
// always sent and may be null).
func TestResponseFieldsSayTheirShape(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !ts.Name.IsExported() || strings.HasSuffix(ts.Name.Name, "Params") {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, fl := range st.Fields.List {
				if len(fl.Names) == 0 || !fl.Names[0].IsExported() || fl.Tag == nil {
					continue
				}
				tag := reflect.StructTag(strings.Trim(fl.Tag.Value, "`")).Get("json")
				if tag == "" || tag == "-" {
					continue
				}
				var want string
				switch ft := fl.Type.(type) {
				case *ast.StarExpr:
					want = "nil when null"
					if strings.Contains(tag, ",omitempty") {
						want = "nil when absent"
					}
				case *ast.IndexExpr:
					if id, ok := ft.X.(*ast.Ident); !ok || id.Name != "Opt" {
						continue
					}
					want = "absent"
				default:
					continue
				}
				checked++
				comment := strings.ToLower(strings.Join(strings.Fields(fl.Doc.Text()+" "+fl.Comment.Text()), " "))
				if !strings.Contains(comment, want) {
					t.Errorf("%s: %s.%s: its comment should say %q (the shape of a %s field)",
						fset.Position(fl.Pos()), ts.Name.Name, fl.Names[0].Name, want, tag)
				}
			}
			return true
		})
	}
	if checked < 150 {
		t.Fatalf("checked %d fields; the walk missed the package's types", checked)
	}
}
