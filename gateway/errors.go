package gateway

import (
	"errors"
	"fmt"
)

// CloseError is the error a shard stops with when the gateway closed the
// connection with a code that forbids reconnecting (4004, 4010, 4011, 4012,
// 4013, 4014). Its text says what to do. The shard never retries after
// one: a bad token retried in a loop gets it reset.
type CloseError struct {
	Code   CloseCode
	Reason string // the close frame's reason, as the server sent it
	// Meaning is the platform's name for the code ("disallowed intents").
	Meaning string
	// Advice says what the operator must do.
	Advice string
	// Intents is what IDENTIFY asked for; for 4013 and 4014 the error
	// names them (the privileged ones for 4014).
	Intents Intents
}

func (e *CloseError) Error() string {
	s := fmt.Sprintf("gateway: closed with %d (%s)", int(e.Code), e.Meaning)
	switch e.Code {
	case CloseDisallowedIntents:
		s += fmt.Sprintf("; privileged intents asked for: %s", e.Intents.Privileged())
	case CloseInvalidIntents:
		s += fmt.Sprintf("; intents asked for: %d", uint64(e.Intents))
	}
	if e.Advice != "" {
		s += ": " + e.Advice
	}
	return s
}

// PayloadTooLargeError is returned for a payload over [MaxPayload] bytes;
// nothing was sent.
type PayloadTooLargeError struct {
	Op   Opcode
	Size int
}

func (e *PayloadTooLargeError) Error() string {
	return fmt.Sprintf("gateway: %s payload of %d bytes is over the gateway's %d; nothing was sent", e.Op, e.Size, MaxPayload)
}

// ErrClosed is returned by the methods of a shard that was closed, or that
// stopped.
var ErrClosed = errors.New("gateway: the shard is closed")

// ErrSessionLost is returned (wrapped, with the reason) by a send waiting
// for the connection when the session could not be resumed: the shard
// identifies anew, and a payload of the old session ([Shard.UpdatePresence],
// [Shard.RequestGuildMembers] and its chunks) is not sent on the new one.
var ErrSessionLost = errors.New("gateway: the session was lost")
