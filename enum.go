package guildkit

import "strconv"

// enumString names v from names (indexed by value), or formats it as
// "Type(v)" when it has no name.
func enumString(typ string, names []string, v int) string {
	if v >= 0 && v < len(names) && names[v] != "" {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(v) + ")"
}

// flagString names the set bits of v from names (indexed by bit), joined by
// "|"; unnamed bits print as "1<<n", and no bit as "0".
func flagString(names []string, v uint64) string {
	if v == 0 {
		return "0"
	}
	s := ""
	for i := 0; i < 64; i++ {
		if v&(1<<i) == 0 {
			continue
		}
		if s != "" {
			s += "|"
		}
		if i < len(names) && names[i] != "" {
			s += names[i]
		} else {
			s += "1<<" + strconv.Itoa(i)
		}
	}
	return s
}
