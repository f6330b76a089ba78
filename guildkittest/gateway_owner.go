package guildkittest

// The owner of a gateway connection is a role, not a goroutine: whoever
// holds it alone touches the connection's owner-only state and writes to
// its WebSocket. Work for the owner (HELLO, a message read, dispatches
// queued, the heartbeat timeout, requests such as faults and a resume's
// takeover) starts an owner goroutine when none runs, which does all the
// work there is and ends. The connection's own goroutine only reads: it
// never runs the owner's deep work, so its stack stays small while it
// waits, and an idle connection keeps that one goroutine and no other.

// signal sets a flag of work for the owner (new dispatches, the heartbeat
// timeout; nil for none) and starts an owner goroutine when none runs.
func (c *gwConn) signal(flag *bool) {
	c.own.Lock()
	if flag != nil {
		*flag = true
	}
	start := c.claimLocked()
	c.own.Unlock()
	if start {
		go c.serveOwned()
	}
}

// claimLocked makes the caller start an owner goroutine when none runs
// and the connection has not ended. The caller holds own.
func (c *gwConn) claimLocked() bool {
	if c.owned || c.finished {
		return false
	}
	c.owned = true
	c.s.gw.wg.Add(1)
	return true
}

// deliver hands a message the connection read to the owner, once the one
// before it was taken; false when the connection has ended.
func (c *gwConn) deliver(in gwIn) bool {
	c.own.Lock()
	for c.message != nil && !c.finished {
		c.ownCond.Wait()
	}
	if c.finished {
		c.own.Unlock()
		return false
	}
	c.message = &in
	start := c.claimLocked()
	c.own.Unlock()
	if start {
		go c.serveOwned()
	}
	return true
}

// request queues req for the owner, as signal does; false when the
// connection has ended (req will never be applied).
func (c *gwConn) request(req gwCtl) bool {
	c.own.Lock()
	if c.finished {
		c.own.Unlock()
		return false
	}
	c.requests = append(c.requests, req)
	start := c.claimLocked()
	c.own.Unlock()
	select {
	case c.ctlSig <- struct{}{}:
	default:
	}
	if start {
		go c.serveOwned()
	}
	return true
}

// serveOwned is an owner goroutine: it does the work waiting, then ends,
// ending the connection when the work says so.
func (c *gwConn) serveOwned() {
	defer c.s.gw.wg.Done()
	if c.work() {
		c.stop()
	}
}

// work does, as the owner, what waits — HELLO first, then requests, the
// heartbeat timeout, the message read, the dispatches queued — until
// nothing does, and gives the role up; true when something ended the
// connection (the caller, still the owner, then calls stop).
func (c *gwConn) work() bool {
	for {
		c.own.Lock()
		var stop bool
		switch {
		case !c.started:
			c.started = true
			c.own.Unlock()
			stop = !c.start()
		case len(c.requests) > 0:
			c.own.Unlock()
			stop = c.applyRequests()
		case c.hbDueSet:
			c.hbDueSet = false
			c.own.Unlock()
			c.heartbeatTimeout()
			stop = true
		case c.message != nil:
			in := *c.message
			c.message = nil
			c.own.Unlock()
			c.ownCond.Broadcast() // the reader may read on
			stop = c.received(in)
		case c.wakeSet:
			c.wakeSet = false
			c.own.Unlock()
			stop = c.flush() != nil
		default:
			c.owned = false
			c.own.Unlock()
			c.ownCond.Broadcast() // finish may wait for the owner to be done
			return false
		}
		if stop {
			return true
		}
	}
}

// applyRequests applies the requests queued, in order; true when one
// ended the connection. The caller is the owner.
func (c *gwConn) applyRequests() bool {
	for {
		c.own.Lock()
		if len(c.requests) == 0 {
			c.own.Unlock()
			return false
		}
		req := c.requests[0]
		c.requests[0] = gwCtl{}
		c.requests = c.requests[1:]
		if len(c.requests) == 0 {
			c.requests = nil
		}
		c.own.Unlock()
		if c.apply(req.fault, req.done) {
			return true
		}
	}
}

// hasTakeoverFrom says whether old has asked to take over the session of
// c (a RESUME on old of c's session) and c has not yet done it.
func (c *gwConn) hasTakeoverFrom(old *gwConn) bool {
	c.own.Lock()
	defer c.own.Unlock()
	for _, r := range c.requests {
		if r.from == old {
			return true
		}
	}
	return false
}

// stop ends the connection, by its owner, whose last act it is: no owner
// goroutine starts again, and the connection's goroutine, its read cut,
// finishes.
func (c *gwConn) stop() {
	c.own.Lock()
	c.finished = true
	c.owned = false
	c.own.Unlock()
	c.ownCond.Broadcast()
	c.cancel()
	_ = c.ws.CloseNow()
}

// finish is the connection's goroutine's last act, once reading ended:
// it waits for the owner to be done (its last message handled, or the
// connection ended by the owner), then hands the session back.
func (c *gwConn) finish() {
	c.own.Lock()
	for c.owned {
		c.ownCond.Wait()
	}
	c.finished = true
	c.own.Unlock()
	c.cancel()
	_ = c.ws.CloseNow()
	if c.stopHB != nil {
		c.stopHB()
	}
	if c.zenc != nil {
		_ = c.zenc.Close()
	}
	c.release()
	close(c.released)
}
