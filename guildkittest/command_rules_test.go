package guildkittest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

// TestEmptyContextsRefused: an empty contexts list is refused 50035 at
// "contexts" on create, edit and bulk overwrite, as the platform refuses
// it (stored, it would read back absent: every context).
func TestEmptyContextsRefused(t *testing.T) {
	t.Parallel()
	f := newFidelity(t)
	app := "/applications/" + f.srv.Application().ID.String()
	status, cmd := f.do(t, http.MethodPost, app+"/commands", "application/json", `{"name":"ok","description":"d","contexts":[0]}`)
	require.Equal(t, http.StatusCreated, status, "%v", cmd)
	for _, tc := range []struct{ method, path, body string }{
		{http.MethodPost, app + "/commands", `{"name":"x","description":"d","contexts":[]}`},
		{http.MethodPatch, app + "/commands/" + cmd["id"].(string), `{"contexts":[]}`},
		{http.MethodPut, app + "/commands", `[{"name":"x","description":"d","contexts":[]}]`},
	} {
		status, body := f.do(t, tc.method, tc.path, "application/json", tc.body)
		assert.Equal(t, http.StatusBadRequest, status, "%s %s: %v", tc.method, tc.body, body)
		path := "contexts"
		if tc.method == http.MethodPut {
			path = "0.contexts"
		}
		assert.NotEmpty(t, errorsAt(body, path), "%s %s: errors at %q in %v", tc.method, tc.body, path, body)
	}
	cmds := f.srv.Commands(0)
	require.Len(t, cmds, 1)
	assert.Equal(t, []guildkit.InteractionContextType{guildkit.InteractionContextGuild}, cmds[0].Contexts)
}
