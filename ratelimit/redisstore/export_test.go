package redisstore

// MaxWindows is maxWindows, for the test of the bound.
const MaxWindows = maxWindows

// Windows returns how many buckets the fallback remembers sending in.
func (s *Store) Windows() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.windows)
}
