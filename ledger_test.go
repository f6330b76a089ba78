package guildkit_test

import (
	"bufio"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// operation is one line of testdata/operations.txt.
type operation struct{ name, method, route string }

func readOperations(t *testing.T) []operation {
	t.Helper()
	return readOperationsFile(t, "operations.txt")
}

// readInteractionOperations reads testdata/interaction_operations.txt: the
// routes of spec/interactions.md.
func readInteractionOperations(t *testing.T) []operation {
	t.Helper()
	return readOperationsFile(t, "interaction_operations.txt")
}

func readOperationsFile(t *testing.T, name string) []operation {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	require.NoError(t, err)
	defer f.Close()
	var ops []operation
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		require.Len(t, parts, 3, "line %q", line)
		ops = append(ops, operation{parts[0], parts[1], parts[2]})
	}
	require.NoError(t, sc.Err())
	return ops
}

// specMethod is a method whose doc comment carries a Spec line.
type specMethod struct {
	fn            string // "GuildService.Get"
	method, route string
}

var specLine = regexp.MustCompile(`^Spec: "([^"]+)" — ([A-Z]+) (\S+)$`)

// readSpecLines parses the package's source for Spec lines.
func readSpecLines(t *testing.T) map[string][]specMethod {
	t.Helper()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	out := map[string][]specMethod{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			fn := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				typ := fd.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					fn = id.Name + "." + fn
				}
			}
			for _, line := range strings.Split(fd.Doc.Text(), "\n") {
				if m := specLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
					out[m[1]] = append(out[m[1]], specMethod{fn: fn, method: m[2], route: m[3]})
				} else if strings.HasPrefix(strings.TrimSpace(line), "Spec:") {
					t.Errorf("%s: malformed Spec line %q", fn, line)
				}
			}
		}
	}
	return out
}

// ledgerCall invokes the method that serves one operation against a fresh
// in-memory server; the test then checks the route the server saw. The call
// may fail (a 4xx is fine), but it must reach the server.
type ledgerCall func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error

var ledgerCalls = map[string]ledgerCall{}

// registerLedger adds the call for operation name; resource test files use it.
func registerLedger(name string, call ledgerCall) bool {
	if _, dup := ledgerCalls[name]; dup {
		panic("two ledger calls for " + name)
	}
	ledgerCalls[name] = call
	return true
}

func TestOperationLedger(t *testing.T) {
	t.Parallel()
	ops := readOperations(t)
	require.Len(t, ops, 65, "the two documents list 65 operations")
	interactionOps := readInteractionOperations(t)
	require.Len(t, interactionOps, 8, "interactions.md lists 8 routes")
	ops = append(ops, interactionOps...)
	commandOps := readOperationsFile(t, "command_operations.txt")
	require.Len(t, commandOps, 16, "commands.md lists 12 registration routes (§4.1) and 3 permission routes (§4.4; its batch edit is disabled); the application's id comes from a 16th")
	ops = append(ops, commandOps...)
	gatewayOps := readOperationsFile(t, "gateway_operations.txt")
	require.Len(t, gatewayOps, 2, "gateway.md §1.1 lists 2 routes")
	ops = append(ops, gatewayOps...)
	messageOps := readOperationsFile(t, "message_operations.txt")
	require.Len(t, messageOps, 11, "messages.md §2.1 lists 12 routes; Crosspost Message is left out")
	ops = append(ops, messageOps...)
	claimed := readSpecLines(t)
	known := map[string]operation{}
	for _, op := range ops {
		known[op.name] = op
	}
	for name := range claimed {
		assert.Contains(t, known, name, "a Spec line names an operation the spec does not have")
	}
	var missing []string
	for _, op := range ops {
		ms := claimed[op.name]
		switch len(ms) {
		case 0:
			missing = append(missing, op.name)
			continue
		case 1:
		default:
			t.Errorf("%q is claimed by %d methods: %v", op.name, len(ms), ms)
			continue
		}
		m := ms[0]
		assert.Equal(t, op.method+" "+op.route, m.method+" "+m.route, "%s: Spec line of %s differs from the spec", op.name, m.fn)
		call, ok := ledgerCalls[op.name]
		if !assert.True(t, ok, "%s (%s) has no ledger call to check the route it sends", op.name, m.fn) {
			continue
		}
		t.Run(op.name, func(t *testing.T) {
			t.Parallel()
			srv := guildkittest.NewServer(t)
			err := call(t.Context(), srv, srv.Client())
			var ve *guildkit.ValidationError
			require.NotErrorAs(t, err, &ve, "the call must reach the server")
			req, ok := srv.LastRequest()
			require.True(t, ok, "no request reached the server")
			assert.Equal(t, op.method+" "+op.route, req.Method+" "+req.Route, "%s sent a different route", m.fn)
		})
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d operations have no method: %s", len(missing), strings.Join(missing, ", "))
	}
}

var _ = registerLedger("Get Guild", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	g := srv.AddGuild(guildkit.Guild{})
	_, err := c.Guilds.Get(ctx, g.ID, nil)
	return err
})
