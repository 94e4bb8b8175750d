package main

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"text/template"
	"time"
)

// windowScript is the wrk script, with cityBoxes filled in.
//
//go:embed window.lua
var windowLua string

var windowScript = template.Must(template.New("window.lua").Parse(windowLua))

// errNoWrk says the load test could not run.
var errNoWrk = errors.New("wrk is not installed (Debian's wrk package)")

// loadResult is what one wrk run measured.
type loadResult struct {
	requests, errors int64
	rps, p99ms       float64
}

// runLoad loads the server at base with wrk (2 threads, 16 connections)
// for d, each request a month + bbox window.
func runLoad(ctx context.Context, base string, d time.Duration, scratch string) (loadResult, error) {
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		return loadResult{}, errNoWrk
	}
	var lua bytes.Buffer
	if err := windowScript.Execute(&lua, cityBoxes); err != nil {
		return loadResult{}, err
	}
	script := filepath.Join(scratch, "window.lua")
	if err := os.WriteFile(script, lua.Bytes(), 0o644); err != nil {
		return loadResult{}, err
	}
	secs := max(1, int(d.Round(time.Second)/time.Second))
	out, err := exec.CommandContext(ctx, wrk, "-t2", "-c16", fmt.Sprintf("-d%ds", secs), "--timeout", "10s",
		"-s", script, base).CombinedOutput()
	if err != nil {
		return loadResult{}, commandError("wrk", err, out)
	}
	return parseWrk(out)
}

var (
	wrkRPS     = regexp.MustCompile(`(?m)^Requests/sec:\s+([\d.]+)`)
	wrkSummary = regexp.MustCompile(`(?m)^syriamap: requests (\d+), errors (\d+), p99_us (\d+)`)
)

// parseWrk reads wrk's requests per second and the line window.lua adds.
func parseWrk(out []byte) (loadResult, error) {
	r, s := wrkRPS.FindSubmatch(out), wrkSummary.FindSubmatch(out)
	if r == nil || s == nil {
		return loadResult{}, fmt.Errorf("wrk printed no figures: %s", out)
	}
	var res loadResult
	res.rps, _ = strconv.ParseFloat(string(r[1]), 64)
	res.requests, _ = strconv.ParseInt(string(s[1]), 10, 64)
	res.errors, _ = strconv.ParseInt(string(s[2]), 10, 64)
	p99, _ := strconv.ParseFloat(string(s[3]), 64)
	res.p99ms = p99 / 1000
	return res, nil
}
