package main

import (
	"bytes"
	"context"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestAuditFeedInMemory(t *testing.T) {
	defer goleak.VerifyNone(t)
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(string) string { return "" }))
	got := regexp.MustCompile(`\d{6,}`).ReplaceAllString(out.String(), "ID")
	got = regexp.MustCompile(`session \S+ at \d+`).ReplaceAllString(got, "session S at N")
	got = regexp.MustCompile(`inv\w+`).ReplaceAllString(got, "CODE")
	assert.Equal(t, `GUILDKIT_TOKEN is not set: running against the in-memory server
identified: a new session
posted ID: Member joined: <@ID> (newcomer) joined.
posted ID: Role created: Role **Moderators** was created.
posted ID: Role changed: Role **Moderators** was changed (permissions KICK_MEMBERS|BAN_MEMBERS).
posted ID: Member left: <@ID> (troll) left or was removed.
posted ID: Member banned: <@ID> (troll) was banned.
posted ID: Invite created: Invite **CODE** to <#ID> was created.
stopping the feed
saved session S at N (shard 0/1)
changed three things while the feed was down; starting it again
resuming session S at N (shard 0/1)
posted ID: Ban lifted: <@ID> (troll) was unbanned.
posted ID: Invite deleted: Invite **CODE** was deleted.
posted ID: Role deleted: Role ID was deleted.
saved session S at N (shard 0/1)
posted 9 entries to #audit-log
`, got)
}

func TestAuditFeedNeedsAWebhookWithAToken(t *testing.T) {
	env := map[string]string{"GUILDKIT_TOKEN": "x"}
	err := run(context.Background(), &bytes.Buffer{}, func(k string) string { return env[k] })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "GUILDKIT_WEBHOOK_URL")
}
