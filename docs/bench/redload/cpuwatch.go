package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// cpuWatch measures, while a load runs, how much CPU the processes that
// are not part of the benchmark take (on a shared development machine:
// compilers, other test runs). The benchmark's own processes are the
// benchmark's PostgreSQL (its postmaster and that postmaster's children),
// this process, and the processes the benchmark script started — the
// descendants of -root (the script's PID): the server (promoengine) and the
// load generators (redload, pgbench, pubload). Another promoengine or
// pgbench on the machine, not started by the script, counts as other work
// (before, any process of those names counted as the benchmark's).
// /proc is sampled every 250 ms; a process that starts and ends between
// two samples is missed. Sampling is not free (the kernel formats every
// process's stat file): at 100 ms with a directory glob, which stats every
// entry too, the watch itself took 0.07-0.08 of a core on the machine it
// measures; now about a fifth of that.
type cpuWatch struct {
	postmaster int
	root       int // the benchmark script's PID (0: match by name as before)
	start      time.Time
	busy0      uint64
	steal0     uint64
	first      map[procKey]uint64 // CPU ticks when first seen (0 if it started during the watch)
	last       map[procKey]uint64
	mine       map[procKey]bool
	comm       map[procKey]string
	done       chan struct{}
	finished   chan string
}

type procKey struct {
	pid   int
	start uint64 // start time in ticks since boot: pids are reused
}

const ticksPerSecond = 100 // USER_HZ on Linux

func startCPUWatch(postmaster, root int) *cpuWatch {
	w := &cpuWatch{postmaster: postmaster, root: root, start: time.Now(), first: map[procKey]uint64{}, last: map[procKey]uint64{},
		mine: map[procKey]bool{}, comm: map[procKey]string{}, done: make(chan struct{}), finished: make(chan string, 1)}
	w.busy0, w.steal0 = machineBusy()
	bootTicks := uint64(0)
	if up, err := os.ReadFile("/proc/uptime"); err == nil {
		if f, err := strconv.ParseFloat(strings.Fields(string(up))[0], 64); err == nil {
			bootTicks = uint64(f * ticksPerSecond)
		}
	}
	w.sample(bootTicks)
	go func() {
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-w.done:
				w.sample(bootTicks)
				w.finished <- w.report()
				return
			case <-t.C:
				w.sample(bootTicks)
			}
		}
	}()
	return w
}

// stop ends the watch and returns its report line.
func (w *cpuWatch) stop() string {
	select {
	case <-w.done:
	default:
		close(w.done)
	}
	return <-w.finished
}

// sample reads every process's CPU ticks. A process first seen after the
// first sample that started after the watch counts from 0.
func (w *cpuWatch) sample(bootTicks uint64) {
	initial := len(w.first) == 0
	parents := map[int]int{}
	var fresh []procKey
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if c := e.Name()[0]; c < '0' || c > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i, j := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		if i < 0 || j < i {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b[:i])))
		comm := string(b[i+1 : j])
		f := strings.Fields(string(b[j+1:])) // f[0] is field 3 (state)
		if len(f) < 20 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		utime, _ := strconv.ParseUint(f[11], 10, 64)
		stime, _ := strconv.ParseUint(f[12], 10, 64)
		started, _ := strconv.ParseUint(f[19], 10, 64)
		k := procKey{pid, started}
		parents[pid] = ppid
		if _, seen := w.first[k]; !seen {
			if initial || started < bootTicks {
				w.first[k] = utime + stime
			} else {
				w.first[k] = 0
			}
			w.mine[k] = pid == w.postmaster || ppid == w.postmaster || pid == os.Getpid() ||
				w.root == 0 && (comm == "promoengine" || comm == "redload" || comm == "pgbench" || comm == "pubload")
			w.comm[k] = comm
			fresh = append(fresh, k)
		}
		if w.mine[k] && w.comm[k] == "postgres" {
			// A PostgreSQL process is retitled after it starts; autovacuum
			// workers are told apart by that title.
			if t, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && bytes.HasPrefix(t, []byte("postgres: ")) {
				w.comm[k] = "postgres: "
				if bytes.Contains(t, []byte("autovacuum worker")) {
					w.comm[k] = "autovacuum"
				}
			}
		}
		w.last[k] = utime + stime
	}
	if w.root != 0 {
		for _, k := range fresh {
			w.mine[k] = w.mine[k] || descends(k.pid, w.root, parents)
		}
	}
}

// descends reports whether pid is root or one of its descendants, by the
// parent links of one sample.
func descends(pid, root int, parents map[int]int) bool {
	for range 64 {
		if pid == root {
			return true
		}
		next, ok := parents[pid]
		if !ok || next == pid || next <= 1 {
			return false
		}
		pid = next
	}
	return false
}

func (w *cpuWatch) report() string {
	secs := time.Since(w.start).Seconds()
	var others, server, postgres, autovacuum, loaders uint64
	top := map[string]uint64{}
	for k, last := range w.last {
		d := last - w.first[k]
		if last < w.first[k] {
			d = 0
		}
		if w.mine[k] {
			switch w.comm[k] {
			case "promoengine":
				server += d
			case "redload", "pgbench", "pubload":
				loaders += d
			case "autovacuum":
				autovacuum += d
			default:
				postgres += d
			}
		} else {
			others += d
			top[w.comm[k]] += d
		}
	}
	busy1, steal1 := machineBusy()
	busy := float64(busy1-w.busy0) / ticksPerSecond / secs
	steal := float64(steal1-w.steal0) / ticksPerSecond / secs
	var names []string
	for n, t := range top {
		if float64(t)/ticksPerSecond/secs >= 0.05 {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool { return top[names[i]] > top[names[j]] })
	for i, n := range names {
		names[i] = fmt.Sprintf("%s %.2f", n, float64(top[n])/ticksPerSecond/secs)
	}
	cores := func(t uint64) float64 { return float64(t) / ticksPerSecond / secs }
	return fmt.Sprintf("cpu: server %.2f, postgres %.2f (autovacuum %.2f), load generator %.2f, other processes %.2f cores %v; "+
		"machine busy %.2f of %d cores, stolen by the hypervisor %.2f",
		cores(server), cores(postgres+autovacuum), cores(autovacuum), cores(loaders), cores(others), names, busy, runtime.NumCPU(), steal)
}

// machineBusy is the machine's CPU ticks since boot (/proc/stat) that
// were neither idle nor stolen, and those stolen by the hypervisor.
func machineBusy() (busy, steal uint64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	for i, v := range f[1:] {
		n, _ := strconv.ParseUint(v, 10, 64)
		switch i {
		case 3, 4: // idle, iowait
		case 7:
			steal = n
		case 8, 9: // guest time is already counted in user time
		default:
			busy += n
		}
	}
	return busy, steal
}
