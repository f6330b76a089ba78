package guildkit_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func TestGatewayGet(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("/gateway", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, "GET")
		assert.Empty(t, r.Header.Get("Authorization"), "GET /gateway needs no credential")
		fmt.Fprint(w, `{"url":"wss://gateway.example"}`)
	})
	g, err := c.Gateway.Get(t.Context())
	require.NoError(t, err)
	assert.Equal(t, "wss://gateway.example", g.URL)
}

func TestGatewayGetBot(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("/gateway/bot", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, "GET")
		testHeader(t, r, "Authorization", "Bot "+testToken)
		fmt.Fprint(w, `{"url":"wss://gateway.example","shards":9,"session_start_limit":{"total":1000,"remaining":999,"reset_after":14400000,"max_concurrency":16}}`)
	})
	g, err := c.Gateway.GetBot(t.Context())
	require.NoError(t, err)
	assert.Equal(t, &guildkit.GatewayBot{URL: "wss://gateway.example", Shards: 9,
		SessionStartLimit: guildkit.SessionStartLimit{Total: 1000, Remaining: 999, ResetAfter: 4 * time.Hour, MaxConcurrency: 16}}, g)
}

func TestGatewayGetBotErrors(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("/gateway/bot", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Bad") != "" {
			fmt.Fprint(w, `{"url":"wss://x","shards":1,"session_start_limit":{"total":1000,"remaining":-1,"reset_after":0,"max_concurrency":1}}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"message":"401: Unauthorized","code":0}`)
	})
	_, err := c.Gateway.GetBot(t.Context())
	require.ErrorIs(t, err, guildkit.ErrUnauthorized)
	assert.NotContains(t, err.Error(), testToken)
	_, err = c.Gateway.GetBot(t.Context(), guildkit.WithHeader("X-Bad", "1"))
	var de *guildkit.DecodeError
	require.ErrorAs(t, err, &de, "a negative budget is a bad answer, not a panic")
}

var _ = registerLedger("Get Gateway", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client) error {
	_, err := c.Gateway.Get(ctx)
	return err
})

var _ = registerLedger("Get Gateway Bot", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client) error {
	_, err := c.Gateway.GetBot(ctx)
	return err
})
