package guildkittest

import (
	"net"
	"strconv"
)

// usableURL is "http://host:port" for a listener's address, with 127.0.0.1
// for an unspecified host (0.0.0.0 or ::), which no client can connect to.
func usableURL(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String()
	}
	ip := tcp.IP
	if ip == nil || ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return "http://" + net.JoinHostPort(ip.String(), strconv.Itoa(tcp.Port))
}
