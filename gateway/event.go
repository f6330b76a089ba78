package gateway

import (
	"encoding/json"
	"fmt"
)

// Event is one event the gateway dispatched (op 0): a pointer to one of the
// typed events of this package (*[GuildMemberAdd], *[Ready], ...), or a
// *[RawEvent] for an event the SDK does not model.
//
// EventName returns the dispatch's name ("GUILD_MEMBER_ADD"). It works on a
// nil pointer, so the name of an event type is known without a value:
//
//	var e *gateway.GuildBanAdd
//	e.EventName() // "GUILD_BAN_ADD"
type Event interface {
	EventName() string
}

// RawEvent is an event the SDK does not model (a newer platform's, or one
// outside the interface's documents): its name and its data as received.
// It is delivered like any other event, never reported as an error.
//
// A *RawEvent's EventName is its Name; on a nil pointer it is "", which a
// handler registration reads as "every event without a type of its own".
type RawEvent struct {
	Name string          // the dispatch's t
	Data json.RawMessage // the dispatch's d, as received
}

// EventName returns e.Name, or "" for a nil e.
func (e *RawEvent) EventName() string {
	if e == nil {
		return ""
	}
	return e.Name
}

// String names the event and the size of its data (not the data, which
// may hold an interaction's token).
func (e *RawEvent) String() string {
	if e == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%s (%d bytes)", e.Name, len(e.Data))
}

// GoString is String, so that %#v shows no data either.
func (e *RawEvent) GoString() string { return "gateway.RawEvent{" + e.String() + "}" }
