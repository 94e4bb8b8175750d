package originals

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestS3 runs the store against a real S3-compatible server, SeaweedFS
// (`weed server -s3`), started here on free loopback ports: its path is
// SYRIAMAP_WEED, else weed on PATH (.ci/run builds it). Without it the
// test is skipped, except under CI.
func TestS3(t *testing.T) {
	weed := os.Getenv("SYRIAMAP_WEED")
	if weed == "" {
		weed, _ = exec.LookPath("weed")
	}
	if weed == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("SeaweedFS's weed is not installed (SYRIAMAP_WEED or PATH); .ci/run builds it")
		}
		t.Skip("SeaweedFS's weed is not installed; .ci/run builds it")
	}
	endpoint := startSeaweed(t, weed)
	var s *S3
	var err error
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		if s, err = NewS3("s3://originals/syriamap", endpoint, "syriamap-test", "a-secret-for-the-test"); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatalf("SeaweedFS at %s: %v", endpoint, err)
	}
	testStore(t, s)
	// A wrong secret is refused by the server, not taken.
	if _, err := NewS3("s3://originals/syriamap", endpoint, "syriamap-test", "not-the-secret"); err == nil {
		t.Error("a wrong secret was accepted")
	}
	if _, err := Check(context.Background(), s, sumOf([]byte("never stored"))); err == nil {
		t.Error("a fixity check of a missing original passed")
	}
}

// startSeaweed starts a SeaweedFS server (master, volume, filer, S3) in a
// temporary folder, with one identity, and returns its S3 endpoint.
func startSeaweed(t *testing.T, weed string) string {
	dir := t.TempDir()
	config := filepath.Join(dir, "s3.json")
	os.WriteFile(config, []byte(`{"identities":[{"name":"syriamap","credentials":[{"accessKey":"syriamap-test","secretKey":"a-secret-for-the-test"}],`+
		`"actions":["Admin","Read","Write","List","Tagging"]}]}`), 0o600)
	data := filepath.Join(dir, "data")
	os.MkdirAll(data, 0o755)
	ports := freePorts(t, 4)
	cmd := exec.Command(weed, "server", "-dir="+data, "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-volume.max=3",
		"-master.port="+ports[0], "-volume.port="+ports[1], "-filer.port="+ports[2],
		"-s3", "-s3.port="+ports[3], "-s3.config="+config)
	log, _ := os.Create(filepath.Join(dir, "weed.log"))
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(dir, "weed.log"))
			t.Logf("weed's log:\n%s", b[max(0, len(b)-3000):])
		}
	})
	return "http://127.0.0.1:" + ports[3]
}

// freePorts are n loopback ports free now, each with room above it
// (SeaweedFS takes port+10000 for gRPC), distinct.
func freePorts(t *testing.T, n int) []string {
	var out []string
	for len(out) < n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if port+10000 > 65535 {
			continue
		}
		if g, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port+10000)); err == nil {
			g.Close()
			out = append(out, fmt.Sprint(port))
		}
	}
	return out
}
