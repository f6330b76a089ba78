package gateway

import (
	"fmt"
	"strconv"
)

func itoa(i int) string { return strconv.Itoa(i) }

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
