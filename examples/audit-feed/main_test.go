package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
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
posted ID: Role changed: Role **Moderators** was changed (permissions KICK_MEMBERS|BAN_MEMBERS, were CREATE_INSTANT_INVITE|VIEW_CHANNEL|SEND_MESSAGES|READ_MESSAGE_HISTORY|CONNECT|SPEAK|CHANGE_NICKNAME|USE_APPLICATION_COMMANDS).
posted ID: Member left: <@ID> (troll) left or was removed (known here as Troll King, roles: Regulars).
posted ID: Member banned: <@ID> (troll) was banned.
posted ID: Invite created: Invite **CODE** to #general was created.
stopping the feed
saved session S at N (shard 0/1)
changed three things while the feed was down; starting it again
resuming session S at N (shard 0/1)
posted ID: Ban lifted: <@ID> (troll) was unbanned.
posted ID: Invite deleted: Invite **CODE** was deleted.
posted ID: Role deleted: Role **Moderators** was deleted.
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

func TestAuditFeedPostsAGapWhenTheSessionCannotResume(t *testing.T) {
	defer goleak.VerifyNone(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv := guildkittest.New()
	defer srv.Close()
	guild := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})
	ch := srv.AddChannel(guild.ID, guildkit.Channel{Name: "audit-log", Type: guildkit.ChannelTypeGuildText})
	wh := srv.AddWebhook(ch.ID, "Audit feed")
	hook, err := guildkit.NewWebhookClient(srv.BaseURL()+"/webhooks/"+wh.ID.String()+"/"+wh.Token, guildkit.WithBaseURL(srv.BaseURL()))
	require.NoError(t, err)

	file := filepath.Join(t.TempDir(), "session")
	require.NoError(t, saveSession(file, &gateway.Session{ID: "expired", Sequence: 41, ResumeURL: srv.GatewayURL(), Shard: [2]int{0, 1}}))
	var out bytes.Buffer
	f := &feed{hook: hook, out: &syncWriter{w: &out}, posted: make(chan string, 4)}
	stop, err := f.start(ctx, srv.Token(), file, gateway.WithClient(srv.Client()), gateway.WithURL(srv.GatewayURL()))
	require.NoError(t, err)
	select {
	case title := <-f.posted:
		assert.Equal(t, "Gap in the feed", title)
	case <-ctx.Done():
		t.Fatal("no post of the gap")
	}
	require.NoError(t, stop())
	saved, err := loadSession(file)
	require.NoError(t, err)
	require.NotNil(t, saved)
	assert.NotEqual(t, "expired", saved.ID, "the new session is saved")
	assert.Contains(t, out.String(), "resuming session expired at 41")
	assert.NotContains(t, out.String(), srv.Token())
}
