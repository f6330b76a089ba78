package guildkittest

import (
	"context"
	"encoding/json"
	"regexp"

	"github.com/seed012df1e9/guildkit"
)

// commandName is the reference platform's rule for a slash command's name.
var commandName = regexp.MustCompile(`^[-_\p{Ll}\p{N}]{1,32}$`)

// maxCommands bounds the command names whose ids the server keeps.
const maxCommands = 1000

// RunCommand runs the application's slash command name (CHAT_INPUT) in a
// channel, as userID, with options, and returns what the user saw: it
// delivers an APPLICATION_COMMAND interaction as [Server.Click] delivers a
// component's. The server keeps no registered commands: every valid name
// (1-32 lower-case letters, digits, '-' and '_') is a command, with an id
// the server gives it, and the options are sent as given. A command's
// answer may open a modal, whose submission then carries no message.
func (s *Server) RunCommand(ctx context.Context, userID, channelID guildkit.Snowflake, name string, options ...guildkit.CommandOption) (*Outcome, error) {
	return s.command(ctx, guildkit.InteractionTypeApplicationCommand, userID, channelID, name, options)
}

// Autocomplete sends what userID is typing in an option of the slash
// command name (APPLICATION_COMMAND_AUTOCOMPLETE): options as typed so far,
// the one being typed marked Focused (exactly one). The answer offers
// choices: the Outcome's Kind is [OutcomeAutocomplete] and its
// Response.Choices are the choices.
func (s *Server) Autocomplete(ctx context.Context, userID, channelID guildkit.Snowflake, name string, options ...guildkit.CommandOption) (*Outcome, error) {
	focused := 0
	var count func([]guildkit.CommandOption)
	count = func(opts []guildkit.CommandOption) {
		for _, o := range opts {
			if o.Focused {
				focused++
			}
			count(o.Options)
		}
	}
	count(options)
	if focused != 1 {
		return nil, refused("an autocomplete has exactly one focused option, got %d", focused)
	}
	return s.command(ctx, guildkit.InteractionTypeAutocomplete, userID, channelID, name, options)
}

func (s *Server) command(ctx context.Context, t guildkit.InteractionType, userID, channelID guildkit.Snowflake, name string, options []guildkit.CommandOption) (*Outcome, error) {
	if !commandName.MatchString(name) {
		return nil, refused("%q is not a command name", name)
	}
	s.mu.Lock()
	gs, ch, perms, err := s.userChannelLocked(userID, channelID)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	store := s.inter()
	if store.commands == nil {
		store.commands = map[string]guildkit.Snowflake{}
	}
	id, ok := store.commands[name]
	if !ok {
		id = s.newID()
		// Names are the sender's: the ids of at most maxCommands are kept,
		// and any more get a fresh id each time.
		if len(store.commands) < maxCommands {
			store.commands[name] = id
		}
	}
	data := guildkit.CommandData{ID: id, Name: name, Type: guildkit.CommandTypeChatInput, Options: options}
	raw, _ := json.Marshal(data)
	st := s.newInteractionLocked(t, raw, gs, ch, userID, perms, nil)
	st.customID = name
	s.mu.Unlock()
	return s.deliver(ctx, st)
}
