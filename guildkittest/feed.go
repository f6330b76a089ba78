package guildkittest

import (
	"sync"
)

// FeedItem is one entry of the server's live feed: an event an operation
// emitted or a request the server answered, in the order they happened.
type FeedItem struct {
	// Kind is "event", "request" or "interaction" (a delivery to the
	// interactions endpoint, once it is answered or has failed).
	Kind        string    `json:"kind"`
	Event       *Event    `json:"event,omitempty"`
	Request     *Request  `json:"request,omitempty"`
	Interaction *Delivery `json:"interaction,omitempty"`
}

// feed fans events and requests out to live subscribers (the control API's
// Server-Sent Events streams). A subscriber that falls behind loses items
// rather than slowing the server: a full channel is skipped and counted.
type feed struct {
	mu   sync.Mutex
	subs map[chan FeedItem]struct{}
}

// feedBuffer is how many items a subscriber may fall behind by.
const feedBuffer = 256

// Subscribe returns a channel that receives every event and request from
// now on, and a function that ends the subscription and closes the
// channel. A subscriber more than a few hundred items behind misses items
// rather than slowing the server.
func (s *Server) Subscribe() (<-chan FeedItem, func()) {
	ch := make(chan FeedItem, feedBuffer)
	s.feed.mu.Lock()
	if s.feed.subs == nil {
		s.feed.subs = make(map[chan FeedItem]struct{})
	}
	s.feed.subs[ch] = struct{}{}
	s.feed.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			s.feed.mu.Lock()
			defer s.feed.mu.Unlock()
			if _, ok := s.feed.subs[ch]; ok { // not yet closed by Close
				delete(s.feed.subs, ch)
				close(ch)
			}
		})
	}
}

// publish sends it to every subscriber that has room.
func (f *feed) publish(it FeedItem) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch := range f.subs {
		select {
		case ch <- it:
		default:
		}
	}
}

// closeAll ends every subscription, when the server closes.
func (f *feed) closeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch := range f.subs {
		close(ch)
	}
	f.subs = nil
}
