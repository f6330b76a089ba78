package gateway

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"
)

// TestFirstRunsBeforeEveryHandler: a function registered with First runs
// before the On and OnAny functions of every event, even those registered
// before it, and its intents join the Mux's.
func TestFirstRunsBeforeEveryHandler(t *testing.T) {
	m := NewMux()
	var order []string
	On(m, func(context.Context, *GuildBanAdd) { order = append(order, "on") })
	OnAny(m, func(context.Context, Event) { order = append(order, "any") })
	First(m, IntentGuildPresences, func(_ context.Context, e Event) { order = append(order, "first "+e.EventName()) })
	First(m, 0, func(context.Context, Event) { panic("recovered") })
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	m.dispatch(context.Background(), logger, &GuildBanAdd{})
	m.dispatch(context.Background(), logger, &RawEvent{Name: "PRESENCE_UPDATE"})
	want := []string{"first GUILD_BAN_ADD", "on", "any", "first PRESENCE_UPDATE", "any"}
	if !slices.Equal(order, want) {
		t.Errorf("order = %q, want %q", order, want)
	}
	if got := m.Intents(); got != IntentGuildModeration|IntentGuildPresences {
		t.Errorf("Intents = %v, want GUILD_MODERATION|GUILD_PRESENCES", got)
	}
}
