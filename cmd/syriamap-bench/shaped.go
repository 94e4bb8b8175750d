package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strings"
)

// A shaped link: a client in a network namespace of its own, joined to
// the machine by a pair of virtual interfaces whose server side sends at
// 20 Mbit/s (tc netem, or tbf where the kernel has no netem), as a reader
// on a real network is. Loopback only:
// the servers stay on 127.0.0.1, each reached through a forwarder on the
// link's address. It needs root, ip and tc; the bench makes it and tears
// it down.

const (
	shapedNetns = "syriamap-bench"
	shapedHost  = "sm-bench0" // the machine's side
	shapedPeer  = "sm-bench1" // the client's side, in the namespace
	shapedAddr  = "10.77.0.1"
	shapedRate  = "20mbit"
)

// shapedLink is a link made by newShapedLink; close tears it down.
type shapedLink struct {
	listeners []net.Listener
}

// newShapedLink makes the namespace, the interfaces and the shaping; an
// error says why it cannot (not root, no ip or tc).
func newShapedLink(ctx context.Context) (*shapedLink, error) {
	if os.Geteuid() != 0 {
		return nil, errors.New("the shaped link needs root (a network namespace and tc)")
	}
	for _, tool := range []string{"ip", "tc"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, fmt.Errorf("the shaped link needs %s: %w", tool, err)
		}
	}
	removeShapedLink(ctx) // one left by a run that was stopped
	steps := [][]string{
		{"ip", "netns", "add", shapedNetns},
		{"ip", "link", "add", shapedHost, "type", "veth", "peer", "name", shapedPeer},
		{"ip", "link", "set", shapedPeer, "netns", shapedNetns},
		{"ip", "addr", "add", shapedAddr + "/30", "dev", shapedHost},
		{"ip", "link", "set", shapedHost, "up"},
		{"ip", "netns", "exec", shapedNetns, "ip", "addr", "add", "10.77.0.2/30", "dev", shapedPeer},
		{"ip", "netns", "exec", shapedNetns, "ip", "link", "set", shapedPeer, "up"},
		{"ip", "netns", "exec", shapedNetns, "ip", "link", "set", "lo", "up"},
	}
	for _, s := range steps {
		if out, err := exec.CommandContext(ctx, s[0], s[1:]...).CombinedOutput(); err != nil {
			removeShapedLink(ctx)
			return nil, fmt.Errorf("%s: %v: %s", strings.Join(s, " "), err, out)
		}
	}
	// netem where the kernel has it; else a token bucket at the same
	// rate (this project's machines lack sch_netem), with a burst of
	// 32 KB, above what the rate sends in one timer tick.
	netem := []string{"tc", "qdisc", "add", "dev", shapedHost, "root", "netem", "rate", shapedRate}
	tbf := []string{"tc", "qdisc", "add", "dev", shapedHost, "root", "tbf", "rate", shapedRate, "burst", "32kb", "latency", "50ms"}
	if err := exec.CommandContext(ctx, netem[0], netem[1:]...).Run(); err != nil {
		if out, err := exec.CommandContext(ctx, tbf[0], tbf[1:]...).CombinedOutput(); err != nil {
			removeShapedLink(ctx)
			return nil, fmt.Errorf("%s: %v: %s", strings.Join(tbf, " "), err, out)
		}
	}
	return &shapedLink{}, nil
}

func removeShapedLink(ctx context.Context) {
	exec.CommandContext(ctx, "ip", "netns", "del", shapedNetns).Run() // and the interfaces with it
	exec.CommandContext(ctx, "ip", "link", "del", shapedHost).Run()
}

// via returns u as the client in the namespace reaches it: through a
// forwarder on the link's address to u's host on loopback.
func (l *shapedLink) via(u string) (string, error) {
	pu, err := url.Parse(u)
	if err != nil {
		return "", err
	}
	ln, err := net.Listen("tcp", shapedAddr+":0")
	if err != nil {
		return "", err
	}
	l.listeners = append(l.listeners, ln)
	target := pu.Host
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				s, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer s.Close()
				go io.Copy(s, c)
				io.Copy(c, s)
			}()
		}
	}()
	pu.Host = ln.Addr().String()
	return pu.String(), nil
}

// curl is the command that runs curl in the namespace.
func (l *shapedLink) curl() []string { return []string{"ip", "netns", "exec", shapedNetns, "curl"} }

func (l *shapedLink) close(ctx context.Context) {
	for _, ln := range l.listeners {
		ln.Close()
	}
	removeShapedLink(ctx)
}
