package guildkit

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRedactErr covers the last line of defence behind the route-template
// errors: any transport error whose text still holds a path secret, raw or
// percent-encoded, loses it, and errors.Is keeps working through it.
func TestRedactErr(t *testing.T) {
	t.Parallel()
	var v ValidationError
	path, secrets := expandRoute(&v, "/webhooks/{webhook.id}/{webhook.token}/messages/{message.id}",
		[]any{Snowflake(9), "tok/en?x", Snowflake(7)})
	require.NoError(t, v.Err())
	assert.Equal(t, "/webhooks/9/tok%2Fen%3Fx/messages/7", path)
	assert.Equal(t, []string{"tok/en?x"}, secrets, "only {webhook.token} is a secret")

	leaky := fmt.Errorf("dial https://h/webhooks/9/tok%%2Fen%%3Fx failed (token tok/en?x): %w", context.Canceled)
	err := redactErr(leaky, secrets)
	assert.NotContains(t, err.Error(), "tok/en?x")
	assert.NotContains(t, err.Error(), "tok%2Fen%3Fx")
	assert.Contains(t, err.Error(), "<redacted>")
	assert.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, errors.Unwrap(err), "the unredacted error is not reachable by unwrapping")

	clean := errors.New("connection refused")
	assert.Same(t, clean, redactErr(clean, secrets), "an error without a secret is returned as it is")
	assert.NoError(t, redactErr(nil, secrets))
}

// TestExpandRoutePanicsOnMismatch: a service method that gives its route
// more or fewer values than it has placeholders is a bug, found at once.
func TestExpandRoutePanicsOnMismatch(t *testing.T) {
	t.Parallel()
	var v ValidationError
	assert.PanicsWithValue(t, "guildkit: route /guilds/{guild.id}/members/{user.id} has 2 placeholders, given 3 values", func() {
		expandRoute(&v, "/guilds/{guild.id}/members/{user.id}", []any{Snowflake(1), Snowflake(2), Snowflake(3)})
	})
	assert.PanicsWithValue(t, "guildkit: route /guilds/{guild.id}/members/{user.id} has 2 placeholders, given 1 values", func() {
		expandRoute(&v, "/guilds/{guild.id}/members/{user.id}", []any{Snowflake(1)})
	})
	path, _ := expandRoute(&v, "/guilds/{guild.id}/members/{user.id}", []any{Snowflake(0), "x"})
	assert.Equal(t, "/guilds//members/x", path)
	assert.Equal(t, []string{"guild.id"}, func() (p []string) {
		for _, fe := range v.Problems {
			p = append(p, fe.Path)
		}
		return p
	}(), "an empty value is the caller's mistake: a validation problem, not a panic")
}

// expandRoute is appendRoute into a new string, for the tests.
func expandRoute(v *ValidationError, route string, args []any) (string, []string) {
	b, secrets := appendRoute(v, nil, route, args)
	return string(b), secrets
}
