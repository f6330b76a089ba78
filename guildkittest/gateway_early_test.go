package guildkittest_test

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestGatewayReadsWhatCameWithTheUpgrade: a client that sends its first
// payload in the same write as its upgrade request (it did not wait for
// the 101) has it read, after HELLO: the bytes the HTTP server had
// already buffered are not lost when the connection gets its own, smaller
// buffers.
func TestGatewayReadsWhatCameWithTheUpgrade(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.GatewayURL(), "ws://"))
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(10*time.Second)))

	req := "GET /?v=10&encoding=json HTTP/1.1\r\nHost: gateway\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
	heartbeat := maskedText([]byte(`{"op":1,"d":null}`), [4]byte{1, 2, 3, 4})
	_, err = conn.Write(append([]byte(req), heartbeat...))
	require.NoError(t, err)

	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusSwitchingProtocols, resp.StatusCode)
	assert.Contains(t, string(serverFrame(t, br)), `"op":10`, "HELLO first")
	assert.Contains(t, string(serverFrame(t, br)), `"op":11`, "then the heartbeat sent with the upgrade is answered")
}

// maskedText is a client's text frame of p, masked with key.
func maskedText(p []byte, key [4]byte) []byte {
	out := []byte{0x81, 0x80 | byte(len(p))} // FIN, text; masked, len < 126
	out = append(out, key[:]...)
	for i, b := range p {
		out = append(out, b^key[i%4])
	}
	return out
}

// serverFrame reads one unmasked frame from the server and returns its
// payload.
func serverFrame(t *testing.T, r *bufio.Reader) []byte {
	t.Helper()
	var h [2]byte
	_, err := io.ReadFull(r, h[:])
	require.NoError(t, err)
	n := int(h[1] & 0x7f)
	switch n {
	case 126:
		var l [2]byte
		_, err = io.ReadFull(r, l[:])
		n = int(binary.BigEndian.Uint16(l[:]))
	case 127:
		var l [8]byte
		_, err = io.ReadFull(r, l[:])
		n = int(binary.BigEndian.Uint64(l[:]))
	}
	require.NoError(t, err)
	p := make([]byte, n)
	_, err = io.ReadFull(r, p)
	require.NoError(t, err)
	return p
}
