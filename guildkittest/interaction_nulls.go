package guildkittest

import (
	"bytes"
	"encoding/json"

	"github.com/seed012df1e9/guildkit"
)

// nullsRead rewrites the nulls a message body may send where the reference
// platform accepts them, as what they mean there. In a new message (an
// answer, a follow-up) content, embeds, components and allowed_mentions
// null are absent: discord.py sends "content": null with every embed-only
// message. In an edit (edit true) content null is "" and components,
// embeds and attachments null are [] (removed), and any other null member
// is dropped (left as it is). A body that is not a JSON object is
// returned as it is, for decodeJSON to refuse.
func nullsRead(payload []byte, edit bool) []byte {
	if !bytes.Contains(payload, []byte("null")) {
		return payload // nothing to rewrite: skip decoding the body twice
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(payload, &fields) != nil || fields == nil {
		return payload
	}
	changed := false
	for k, v := range fields {
		if string(bytes.TrimSpace(v)) != "null" {
			continue
		}
		switch {
		case !edit && (k == "content" || k == "embeds" || k == "components" || k == "allowed_mentions"):
			delete(fields, k)
		case !edit:
			continue // refused as it is
		case k == "content":
			fields[k] = json.RawMessage(`""`)
		case k == "components" || k == "embeds" || k == "attachments":
			fields[k] = json.RawMessage(`[]`)
		default:
			delete(fields, k)
		}
		changed = true
	}
	if !changed {
		return payload
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return payload
	}
	return out
}

// answerNullsRead is nullsRead for an interaction answer's data: a new
// message's nulls in CHANNEL_MESSAGE_WITH_SOURCE, an edit's in
// UPDATE_MESSAGE. Anything else is returned as it is.
func answerNullsRead(payload []byte) []byte {
	if !bytes.Contains(payload, []byte("null")) {
		return payload
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(payload, &fields) != nil || fields == nil {
		return payload
	}
	var typ guildkit.InteractionResponseType
	data, ok := fields["data"]
	if !ok || json.Unmarshal(fields["type"], &typ) != nil {
		return payload
	}
	var read []byte
	switch typ {
	case guildkit.InteractionResponseChannelMessage:
		read = nullsRead(data, false)
	case guildkit.InteractionResponseUpdateMessage:
		read = nullsRead(data, true)
	default:
		return payload
	}
	if bytes.Equal(read, data) {
		return payload
	}
	fields["data"] = read
	out, err := json.Marshal(fields)
	if err != nil {
		return payload
	}
	return out
}
