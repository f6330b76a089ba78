// Package procstat reads a process's resident memory and CPU time from
// /proc, for the control API's runtime route and the benchmarks that
// measure the emulator as a process of its own. Where there is no /proc
// (or no such process) every reading is 0.
package procstat

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// userHZ is the unit of the CPU times in /proc/<pid>/stat: Linux reports
// them in USER_HZ, 100 a second on every architecture it exports to user
// space.
const userHZ = 100

// path is /proc/<pid>/<name>, or /proc/self/<name> for pid 0.
func path(pid int, name string) string {
	if pid == 0 {
		return "/proc/self/" + name
	}
	return "/proc/" + strconv.Itoa(pid) + "/" + name
}

// Resident returns the resident set size of process pid (0: this one),
// VmRSS of /proc/<pid>/status, in bytes; 0 when it cannot be read.
func Resident(pid int) uint64 {
	b, err := os.ReadFile(path(pid, "status"))
	if err != nil {
		return 0
	}
	return resident(b)
}

// resident reads VmRSS from the text of /proc/<pid>/status.
func resident(b []byte) uint64 {
	_, rest, ok := bytes.Cut(b, []byte("\nVmRSS:"))
	if !ok {
		return 0
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	num, unit, _ := bytes.Cut(bytes.TrimSpace(line), []byte(" "))
	kb, err := strconv.ParseUint(string(num), 10, 64)
	if err != nil || string(bytes.TrimSpace(unit)) != "kB" {
		return 0
	}
	return kb << 10
}

// CPU returns the CPU time process pid (0: this one) has used, user and
// system (utime and stime of /proc/<pid>/stat), at the kernel's
// resolution of 10 ms; 0 when it cannot be read.
func CPU(pid int) time.Duration {
	b, err := os.ReadFile(path(pid, "stat"))
	if err != nil {
		return 0
	}
	return cpu(b)
}

// cpu reads utime+stime from the text of /proc/<pid>/stat.
func cpu(b []byte) time.Duration {
	// The command name, field 2, is in parentheses and may hold spaces:
	// the fields are counted from the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	fields := bytes.Fields(b[i+1:])
	// fields[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(fields) < 13 {
		return 0
	}
	utime, err1 := strconv.ParseUint(string(fields[11]), 10, 64)
	stime, err2 := strconv.ParseUint(string(fields[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(utime+stime) * (time.Second / userHZ)
}
