package gateway

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
)

// Mux holds the functions events are handed to, by event type. A [Shard]
// has one of its own, or shares one given with [WithMux] (a shard manager
// gives all its shards one). Register functions before the shard opens:
// the intents are derived from them then. A Mux is safe for concurrent use.
type Mux struct {
	mu     sync.RWMutex
	byName map[string][]func(context.Context, Event) // by EventName; "" for *RawEvent
	any    []func(context.Context, Event)
	first  []func(context.Context, Event) // by First: before all others
	firstI Intents                        // the intents First asked for
	// content holds the events with a function registered with
	// [ReadsContent]: they need MESSAGE_CONTENT.
	content map[string]bool
}

// NewMux returns an empty Mux.
func NewMux() *Mux { return &Mux{byName: make(map[string][]func(context.Context, Event))} }

// Registrar is what [On] registers with: a [*Mux], or a [*Shard] (its
// Mux).
type Registrar interface {
	mux() *Mux
}

func (m *Mux) mux() *Mux { return m }

// On registers fn for the events of type E, in registration order after
// the ones registered before:
//
//	gateway.On(shard, func(ctx context.Context, e *gateway.GuildBanAdd) { ... })
//
// *[RawEvent] receives the events the SDK has no type for. The intent E
// needs (if any) is added to the shard's intents, unless they were set with
// [WithIntents]. fn runs on the shard's dispatch goroutine, one event at a
// time and in the gateway's order; a slow fn delays the next events (not
// the heartbeat), so hand long work to a goroutine. A panic in fn is
// recovered and logged. ctx is the shard's: [ShardOf] names it.
//
// A function that reads what others write in messages (content, embeds,
// attachments, components, polls) says so with [ReadsContent]:
//
//	gateway.On(shard, func(ctx context.Context, e *gateway.MessageCreate) { ... }, gateway.ReadsContent())
//
// The shard then asks for the privileged MESSAGE_CONTENT intent too, and
// when its intents were set with [WithIntents] without it, Open names the
// event in a warning.
func On[E Event](r Registrar, fn func(ctx context.Context, e E), opts ...HandlerOption) {
	var zero E
	name := zero.EventName()
	var o handlerOptions
	for _, opt := range opts {
		opt(&o)
	}
	h := func(ctx context.Context, ev Event) {
		if e, ok := ev.(E); ok {
			fn(ctx, e)
		}
	}
	m := r.mux()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byName == nil {
		m.byName = make(map[string][]func(context.Context, Event))
	}
	m.byName[name] = append(m.byName[name], h)
	if o.readsContent {
		if m.content == nil {
			m.content = make(map[string]bool)
		}
		m.content[name] = true
	}
}

// HandlerOption changes how [On] registers a function.
type HandlerOption func(*handlerOptions)

type handlerOptions struct {
	readsContent bool
}

// ReadsContent declares that the function reads the content of messages
// others send: MESSAGE_CREATE's or MESSAGE_UPDATE's Content, Embeds,
// Attachments, Components or Poll. Without the privileged MESSAGE_CONTENT
// intent the platform sends them empty, except in DMs, in the bot's own
// messages and in messages that mention the bot; so the shard asks for
// MESSAGE_CONTENT as well as the event's intent (enable it for the
// application first: asking without it closes the connection with 4014).
// A bot that takes commands needs none of this: the platform's commands
// (package interactions) bring their options typed, and a prefix-command
// helper is deliberately not provided.
func ReadsContent() HandlerOption {
	return func(o *handlerOptions) { o.readsContent = true }
}

// OnAny registers fn for every event, after the functions of its type.
func OnAny(r Registrar, fn func(ctx context.Context, e Event)) {
	m := r.mux()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.any = append(m.any, fn)
}

// names returns the event names with a function, for the intents.
func (m *Mux) names() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []string
	for n, hs := range m.byName {
		if n != "" && len(hs) > 0 {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// Intents returns the intents the registered functions need.
func (m *Mux) Intents() Intents {
	m.mu.RLock()
	i := m.firstI
	m.mu.RUnlock()
	for _, n := range m.names() {
		i |= eventIntents(n)
	}
	if m.readsContent() {
		i |= IntentMessageContent
	}
	return i
}

// readsContent reports whether a function was registered with
// [ReadsContent].
func (m *Mux) readsContent() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.content) > 0
}

// missingIntents returns the events with a function whose intent is not in
// have.
func (m *Mux) missingIntents(have Intents) []string {
	var out []string
	for _, n := range m.names() {
		if need := eventIntents(n); need != 0 && have&need == 0 {
			out = append(out, fmt.Sprintf("%s (needs %s)", n, need))
		}
	}
	return out
}

// missingContent returns the events with a function registered with
// [ReadsContent] when have lacks MESSAGE_CONTENT.
func (m *Mux) missingContent(have Intents) []string {
	if have.Has(IntentMessageContent) {
		return nil
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []string
	for n := range m.content {
		out = append(out, n+" (reads content: needs MESSAGE_CONTENT)")
	}
	slices.Sort(out)
	return out
}

// dispatch hands ev to its functions, in order, recovering panics.
func (m *Mux) dispatch(ctx context.Context, logger *slog.Logger, ev Event) {
	name := ev.EventName()
	m.mu.RLock()
	hs := m.byName[name]
	if _, raw := ev.(*RawEvent); raw {
		hs = m.byName[""]
	}
	anys := m.any
	firsts := m.first
	m.mu.RUnlock()
	for _, h := range firsts {
		m.call(ctx, logger, name, h, ev)
	}
	for _, h := range hs {
		m.call(ctx, logger, name, h, ev)
	}
	for _, h := range anys {
		m.call(ctx, logger, name, h, ev)
	}
}

func (m *Mux) call(ctx context.Context, logger *slog.Logger, name string, h func(context.Context, Event), ev Event) {
	defer func() {
		if p := recover(); p != nil {
			logger.LogAttrs(ctx, slog.LevelError, "gateway: an event handler panicked",
				slog.String("event", name), slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(debug.Stack())))
		}
	}()
	h(ctx, ev)
}

type shardKey struct{}

// ShardOf returns the [shard_id, num_shards] of the shard whose handler
// got ctx, and whether ctx came from one.
func ShardOf(ctx context.Context) ([2]int, bool) {
	s, ok := ctx.Value(shardKey{}).([2]int)
	return s, ok
}
