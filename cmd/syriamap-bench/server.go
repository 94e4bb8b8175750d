package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// server is `syriamap serve` running as its own process, so that its
// memory is its own and every request crosses a real loopback socket.
type server struct {
	cmd  *exec.Cmd
	url  string // http://127.0.0.1:PORT, no trailing slash
	logs *tailBuffer

	peakPrivateKiB, peakPSSKiB atomic.Int64
	stopSampling               chan struct{}
	sampled                    sync.WaitGroup

	closeOnce sync.Once
	closeErr  error
}

var servingRe = regexp.MustCompile(`at (http://[^/\s]+)/`)

// startServer serves the archive db with the syriamap binary bin on a free
// loopback port, with any further flags, and returns once /healthz
// answers.
func startServer(ctx context.Context, bin, db string, flags ...string) (*server, error) {
	return startServerEnv(ctx, nil, bin, db, flags...)
}

// startServerEnv is startServer with env added to the server's
// environment (a flag --addr among flags replaces the free port).
func startServerEnv(ctx context.Context, env []string, bin, db string, flags ...string) (*server, error) {
	cmd := exec.Command(bin, append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0", "--quiet"}, flags...)...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, logs: &tailBuffer{max: 8 << 10}, stopSampling: make(chan struct{})}
	cmd.Stderr = s.logs
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
	}()
	select {
	case line := <-lines:
		m := servingRe.FindStringSubmatch(line)
		if m == nil {
			s.close()
			return nil, fmt.Errorf("syriamap serve printed %q, not its address", line)
		}
		s.url = m[1]
	case <-time.After(2 * time.Minute):
		s.close()
		return nil, fmt.Errorf("syriamap serve did not start in 2 minutes: %s", s.logs)
	case <-ctx.Done():
		s.close()
		return nil, ctx.Err()
	}
	if err := s.waitHealthy(ctx); err != nil {
		s.close()
		return nil, err
	}
	s.sampled.Add(1)
	go s.sampleMemory()
	return s, nil
}

func (s *server) waitHealthy(ctx context.Context) error {
	// A large archive's first health probe runs beside its start-up
	// integrity check and index build: it may take a while.
	for range 1200 {
		resp, err := http.Get(s.url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("%s/healthz did not answer 200: %s", s.url, s.logs)
}

// waitIndex waits until the server's memory index is built, as a
// server is once it has run a while: until a year's clusters country-wide
// come in under 50 ms (at most three minutes).
func (s *server) waitIndex(ctx context.Context) {
	for start := time.Now(); time.Since(start) < 3*time.Minute; {
		t0 := time.Now()
		if res, err := http.Get(s.url + "/api/clusters?zoom=7&from=2016&to=2016&bbox=35,32,43,38"); err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
		if time.Since(t0) < 50*time.Millisecond {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// sampleMemory keeps the largest private resident memory (RssAnon) and
// proportional set size (Pss) seen. The kernel keeps a high-water mark for
// the whole RSS only, and RSS counts a file page once per mapping: every
// pooled connection maps the archive, so its pages count up to four
// times. Pss counts each page once, and only its share of what other
// processes map.
func (s *server) sampleMemory() {
	defer s.sampled.Done()
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for tick := 0; ; tick++ {
		if st, err := procStatus(s.cmd.Process.Pid, "status"); err == nil {
			raise(&s.peakPrivateKiB, st["RssAnon"])
		}
		if tick%5 == 0 { // walking the page tables costs more
			if st, err := procStatus(s.cmd.Process.Pid, "smaps_rollup"); err == nil {
				raise(&s.peakPSSKiB, st["Pss"])
			}
		}
		select {
		case <-s.stopSampling:
			return
		case <-t.C:
		}
	}
}

func raise(peak *atomic.Int64, v int64) {
	if v > peak.Load() {
		peak.Store(v)
	}
}

// serverMemory is the server's memory so far, in MiB.
type serverMemory struct {
	peakRSS, peakPSS, peakPrivate float64
}

func (s *server) memory() (serverMemory, error) {
	st, err := procStatus(s.cmd.Process.Pid, "status")
	if err != nil {
		return serverMemory{}, err
	}
	if st, err := procStatus(s.cmd.Process.Pid, "smaps_rollup"); err == nil {
		raise(&s.peakPSSKiB, st["Pss"])
	}
	return serverMemory{
		peakRSS:     float64(st["VmHWM"]) / 1024,
		peakPSS:     float64(s.peakPSSKiB.Load()) / 1024,
		peakPrivate: float64(s.peakPrivateKiB.Load()) / 1024,
	}, nil
}

// close stops the server as Ctrl-C would and waits for it; calls after
// the first return the first one's error.
func (s *server) close() error {
	s.closeOnce.Do(func() {
		close(s.stopSampling)
		s.sampled.Wait()
		s.cmd.Process.Signal(syscall.SIGINT)
		done := make(chan error, 1)
		go func() { done <- s.cmd.Wait() }()
		select {
		case s.closeErr = <-done:
		case <-time.After(20 * time.Second):
			s.cmd.Process.Kill()
			<-done
			s.closeErr = errors.New("syriamap serve did not stop in 20 s after SIGINT; killed")
		}
	})
	return s.closeErr
}

// procStatus reads the kB fields of /proc/PID/FILE, status or
// smaps_rollup (Linux only).
func procStatus(pid int, file string) (map[string]int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, file))
	if err != nil {
		return nil, fmt.Errorf("read process memory: %w", err)
	}
	st := map[string]int64{}
	for _, line := range strings.Split(string(b), "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if !ok || !strings.HasSuffix(rest, " kB") {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(rest, " kB")), 10, 64); err == nil {
			st[name] = n
		}
	}
	return st, nil
}

// tailBuffer keeps the last max bytes written to it (a process's log).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   bytes.Buffer
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b.Write(p)
	if extra := t.b.Len() - t.max; extra > 0 {
		t.b.Next(extra)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(t.b.String())
}

var _ io.Writer = (*tailBuffer)(nil)
