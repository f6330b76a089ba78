package guildkittest

import "github.com/seed012df1e9/guildkit"

// ChannelPermissions returns userID's permissions in a channel or thread as
// the server computes them for its own checks: the guild permissions
// ([Server.Permissions]), then the overwrites of the channel (a thread's
// parent's) for @everyone, the member's roles and the member; no implicit
// denials and no timeouts. It returns 0 for an unknown channel or a
// non-member. Tests compare a cache's computation with it.
func (s *Server) ChannelPermissions(channelID, userID guildkit.Snowflake) guildkit.Permissions {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs, ch := s.webhookChannel(channelID)
	if gs == nil {
		return 0
	}
	return s.channelPermissionsLocked(gs, ch, userID)
}
