package guildkit

import "github.com/seed012df1e9/guildkit/wire"

// Opt is an optional, nullable request field with three states: omitted (the
// zero Opt: the field is not sent), [Some] (send a value) and [Null] (send JSON
// null, which for most fields clears the value). Every optional field of a
// ...Params type is an Opt tagged `json:"name,omitzero"`.
//
//	params := &guildkit.MemberModifyParams{
//		Nick:                       guildkit.Some("bob"),      // set
//		CommunicationDisabledUntil: guildkit.Null[time.Time](), // clear
//	}                                                          // everything else: unchanged
//
// Each field's documentation says whether Null is allowed; where the
// interface forbids null, Null is rejected with a [ValidationError] before
// anything is sent.
//
// Its methods ([wire.Opt.Get], [wire.Opt.Or], [wire.Opt.IsSet],
// [wire.Opt.IsNull], [wire.Opt.IsZero], ...) are listed under package wire,
// whose type this is; the package documentation lists them too.
type Opt[T any] = wire.Opt[T]

// Some returns an [Opt] that sends v.
func Some[T any](v T) Opt[T] { return wire.Some(v) }

// Null returns an [Opt] that sends JSON null.
func Null[T any]() Opt[T] { return wire.Null[T]() }
