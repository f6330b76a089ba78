package gateway

import (
	"encoding/json"
	"fmt"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/internal/jsondec"
)

// EventDecodeError reports a dispatch whose data did not decode into its
// event's type. The shard logs it and skips the event (its sequence number
// still counts): one malformed event never stops the others.
type EventDecodeError struct {
	Name string // the dispatch's t
	Err  error  // encoding/json's error, which names the field but holds no data
}

func (e *EventDecodeError) Error() string {
	return fmt.Sprintf("gateway: decoding %s: %v", e.Name, e.Err)
}

func (e *EventDecodeError) Unwrap() error { return e.Err }

// eventDecoder decodes one event type's data.
type eventDecoder func(data []byte) (Event, error)

// eventDecoders maps each typed event's name to its decoder.
var eventDecoders = map[string]eventDecoder{}

// eventDecoderAt decodes, by the SDK's decoder, an event's data that starts
// at b[i] inside a message's object, where it lies, and returns the index
// after it; ok is false where the decoder declines (data that is not JSON,
// or does not fit the type), and the caller then decodes the data with
// decodeEvent, for its result or its error.
type eventDecoderAt func(b []byte, i int) (ev Event, end int, ok bool)

// eventDecodersAt maps the name of each event whose type the SDK's decoder
// reads to its eventDecoderAt.
var eventDecodersAt = map[string]eventDecoderAt{}

func init() {
	for _, add := range []func(){
		decodes[Ready], decodes[Resumed], decodes[RateLimited],
		decodes[GuildCreate], decodes[GuildUpdate], decodes[GuildDelete],
		decodes[ChannelCreate], decodes[ChannelUpdate], decodes[ChannelDelete],
		decodes[GuildMemberAdd], decodes[GuildMemberUpdate], decodes[GuildMemberRemove],
		decodes[GuildMembersChunk], decodes[GuildBanAdd], decodes[GuildBanRemove],
		decodes[GuildRoleCreate], decodes[GuildRoleUpdate], decodes[GuildRoleDelete],
		decodes[GuildIntegrationsUpdate], decodes[IntegrationCreate], decodes[IntegrationUpdate],
		decodes[IntegrationDelete], decodes[InviteCreate], decodes[InviteDelete],
		decodes[WebhooksUpdate], decodes[MessageCreate],
		decodes[MessageDelete], decodes[MessageDeleteBulk],
	} {
		add()
	}
	eventDecoders[(*InteractionCreate)(nil).EventName()] = decodeInteractionCreate
	eventDecoders[(*MessageUpdate)(nil).EventName()] = decodeMessageUpdate
	eventDecodersAt[(*MessageUpdate)(nil).EventName()] = decodeMessageUpdateAt
	for name := range eventDecoders {
		eventNames[name] = name
	}
}

// decodes adds the decoder of the event type *T, keyed by its name.
func decodes[T any, P interface {
	*T
	Event
}]() {
	name := P(nil).EventName()
	eventDecoders[name] = func(data []byte) (Event, error) {
		p := P(new(T))
		if err := decodeValue(data, p); err != nil {
			return nil, err
		}
		return filled(p), nil
	}
	eventDecodersAt[name] = func(b []byte, i int) (Event, int, bool) {
		p := P(new(T))
		end, ok := jsondec.DecodeAt(b, i, 1, p) // d is inside the message's object
		if !ok {
			return nil, 0, false
		}
		return filled(p), end, true
	}
}

// filled returns e, with what the platform leaves out filled in where its
// type does that.
func filled(e Event) Event {
	if f, ok := e.(interface{ fill() }); ok {
		f.fill()
	}
	return e
}

// decodeEvent decodes data, the d of a dispatch named name, into its typed
// event: a *[RawEvent] (data copied) for a name the SDK does not model, an
// *[EventDecodeError] for data that does not decode into the event's type
// (the caller logs it and skips the event). The event does not refer to
// data, which the caller may reuse.
//
// What it allocates grows with data only: a realistic GUILD_CREATE takes
// about its own size, and the most hostile body (a long array of empty
// objects, each a large struct) about 150 bytes per byte of data, which the
// connection's read limit bounds (TestDecodeEventMemoryIsBoundedByItsInput).
func decodeEvent(name string, data []byte) (Event, error) {
	dec, ok := eventDecoders[name]
	if !ok {
		return &RawEvent{Name: name, Data: append(json.RawMessage(nil), data...)}, nil
	}
	e, err := dec(data)
	if err != nil {
		return nil, &EventDecodeError{Name: name, Err: err}
	}
	return e, nil
}

// decodeValue decodes data, one JSON value, into v: by the SDK's decoder
// when it can (internal/jsondec, as the client decodes answers), else by
// encoding/json, for its verdict and its error.
func decodeValue(data []byte, v any) error {
	if jsondec.Decode(data, v) {
		return nil
	}
	return json.Unmarshal(data, v)
}

// decodeInteractionCreate decodes an interaction as an HTTP delivery is
// decoded (its data by type, the whole body kept in Raw).
func decodeInteractionCreate(data []byte) (Event, error) {
	it := new(guildkit.Interaction)
	// UnmarshalJSON checks data is one JSON value itself (jsondec, or
	// encoding/json when that declines), so it is called directly.
	if err := it.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return &InteractionCreate{Interaction: it}, nil
}

// fill gives the guild's channels and threads the guild id the platform
// leaves out of a GUILD_CREATE.
func (e *GuildCreate) fill() {
	for i := range e.Channels {
		if e.Channels[i].GuildID == 0 {
			e.Channels[i].GuildID = e.ID
		}
	}
	for i := range e.Threads {
		if e.Threads[i].GuildID == 0 {
			e.Threads[i].GuildID = e.ID
		}
	}
}
