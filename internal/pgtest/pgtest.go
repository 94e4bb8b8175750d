// Package pgtest runs a throwaway PostgreSQL cluster for tests: initdb in a
// temporary folder, one postgres process on a Unix socket and a free local
// port, stopped and removed after. PostgreSQL refuses to run as root, so
// under root (CI) the cluster is made and run as the postgres user Debian's
// package creates, or as nobody.
//
// A package's tests use it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
//
// and each test that wants a database of its own calls Database. With
// SYRIAMAP_TEST_POSTGRES set to a server's URL, that server is used and no
// cluster is started.
package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// Cluster is a running PostgreSQL server.
type Cluster struct {
	// URL is the server's address, with the superuser and no database.
	URL  string
	Port int
	dir  string
	bin  string
	as   *syscall.Credential
	cmd  *exec.Cmd
	// exited is closed when the server started last has exited.
	exited chan struct{}
}

// Bin finds PostgreSQL's programs: on PATH, or in Debian's versioned folder.
func Bin() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Dir(real), nil
		}
		return filepath.Dir(p), nil
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(matches) == 0 {
		return "", errors.New("PostgreSQL is not installed (no pg_ctl on PATH or in /usr/lib/postgresql/*/bin; apt-get install postgresql)")
	}
	return filepath.Dir(matches[len(matches)-1]), nil
}

// Start makes a cluster in a new temporary folder and starts it. Stop it
// with Stop.
func Start(ctx context.Context) (*Cluster, error) {
	bin, err := Bin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "syriamap-pg-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, bin: bin}
	if os.Geteuid() == 0 {
		if c.as, err = runAs(); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		if err := os.Chown(dir, int(c.as.Uid), int(c.as.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	if err := c.start(ctx); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

// runAs is the user a root process runs PostgreSQL as.
func runAs() (*syscall.Credential, error) {
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
	}
	return nil, errors.New("running as root, and neither a postgres nor a nobody user to run PostgreSQL as")
}

func (c *Cluster) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(c.bin, name), args...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	// The server dies with the tests' process, even one killed before
	// Main could stop it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if c.as != nil {
		cmd.SysProcAttr.Credential = c.as
	}
	return cmd
}

func (c *Cluster) start(ctx context.Context) error {
	data := filepath.Join(c.dir, "data")
	if out, err := c.command(ctx, "initdb", "-D", data, "-U", "syriamap", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync").CombinedOutput(); err != nil {
		return fmt.Errorf("pgtest: initdb: %v: %s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	c.Port = port
	return c.launch(ctx)
}

// launch starts the server on the cluster's data and port, and waits until
// it accepts connections.
func (c *Cluster) launch(ctx context.Context) error {
	data, port := filepath.Join(c.dir, "data"), c.Port
	// No fsync: a test's cluster is thrown away, and fsync on a shared
	// machine's disk would make every commit wait. Commits still reach
	// the operating system before they are acknowledged (synchronous
	// commit), so a server killed mid-test (Kill) loses no committed
	// transaction, as a real one would not.
	c.cmd = c.command(context.Background(), "postgres", "-D", data, "-k", c.dir, "-h", "127.0.0.1", "-p", strconv.Itoa(port),
		"-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=400",
		"-c", "shared_buffers=128MB", "-c", "log_min_messages=warning")
	log, err := os.OpenFile(filepath.Join(c.dir, "postgres.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	c.cmd.Stdout, c.cmd.Stderr = log, log
	if err := c.cmd.Start(); err != nil {
		log.Close()
		return fmt.Errorf("pgtest: starting postgres: %w", err)
	}
	exited := make(chan struct{})
	c.exited = exited
	go func(cmd *exec.Cmd) {
		cmd.Wait()
		log.Close()
		close(exited)
	}(c.cmd)
	c.URL = fmt.Sprintf("postgres://syriamap@127.0.0.1:%d/", port)
	// Wait for the state "accepts connections", not for a time.
	for {
		db, err := sql.Open("pgx", c.URL+"postgres")
		if err == nil {
			err = db.PingContext(ctx)
			db.Close()
		}
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
		case <-exited:
		case <-time.After(20 * time.Millisecond):
			continue
		}
		out, _ := os.ReadFile(filepath.Join(c.dir, "postgres.log"))
		return fmt.Errorf("pgtest: postgres did not start: %v: %s", err, out)
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Stop stops the server (a fast shutdown) and removes its folder.
func (c *Cluster) Stop() {
	if c.cmd != nil && c.cmd.Process != nil {
		c.cmd.Process.Signal(syscall.SIGINT)
		<-c.exited
	}
	os.RemoveAll(c.dir)
}

// Kill stops the server at once (SIGKILL), as a crash would; Restart
// brings it back on the same port and data.
func (c *Cluster) Kill() {
	if c.cmd != nil && c.cmd.Process != nil {
		c.cmd.Process.Kill()
		<-c.exited
	}
}

// Restart starts again, on the same port and data, a server stopped by
// Kill, and returns once it accepts connections (after its crash
// recovery).
func (c *Cluster) Restart(ctx context.Context) error {
	// A child of the killed postmaster may still hold the shared memory
	// or the port for a moment: the new one's start is retried.
	for {
		err := c.launch(ctx)
		if err == nil || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

var (
	shared   *Cluster
	sharedMu sync.Mutex
	serial   atomic.Int64
)

// Main runs a package's tests with a cluster started on first use (see
// Database) and stopped after them.
func Main(m *testing.M) int {
	code := m.Run()
	sharedMu.Lock()
	if shared != nil {
		shared.Stop()
	}
	sharedMu.Unlock()
	return code
}

// Engine is the engine the tests of an archive run on:
// SYRIAMAP_TEST_ENGINE, "postgres" or (unset) "sqlite".
func Engine() string {
	if e := os.Getenv("SYRIAMAP_TEST_ENGINE"); e != "" {
		return e
	}
	return "sqlite"
}

// ArchivePath is where a test makes a new archive: on PostgreSQL (Engine)
// a new database's URL, else the SQLite file name in a new folder.
func ArchivePath(t testing.TB, name string) string {
	t.Helper()
	if Engine() == "postgres" {
		return Database(t)
	}
	return filepath.Join(t.TempDir(), name)
}

// Server is the address of the server tests use: SYRIAMAP_TEST_POSTGRES,
// or the package's cluster, started on first use.
func Server(t testing.TB) string {
	if u := os.Getenv("SYRIAMAP_TEST_POSTGRES"); u != "" {
		return strings.TrimSuffix(u, "/") + "/"
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if shared == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		c, err := Start(ctx)
		if err != nil {
			t.Fatal(err)
		}
		shared = c
	}
	return shared.URL
}

// Database makes a new empty database on the tests' server and returns
// its URL; it is dropped when the test ends.
func Database(t testing.TB) string {
	t.Helper()
	return create(t, Server(t), "")
}

// Copy makes a new database on the server of the database at src, holding
// what src holds (CREATE DATABASE … TEMPLATE, which waits up to a few
// seconds for the last connections to src to end and fails if any stay),
// and returns its URL; it is dropped when the test ends.
func Copy(t testing.TB, src string) string {
	t.Helper()
	u, err := url.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	template := strings.TrimPrefix(u.Path, "/")
	u.Path = "/"
	return create(t, u.String(), template)
}

// create makes a database on server, a copy of template unless it is "".
func create(t testing.TB, server, template string) string {
	t.Helper()
	name := fmt.Sprintf("t%d_%d", os.Getpid(), serial.Add(1))
	admin, err := sql.Open("pgx", server+"postgres")
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	stmt := `CREATE DATABASE ` + name
	if template != "" {
		stmt += ` TEMPLATE ` + template
	}
	if _, err := admin.Exec(stmt); err != nil {
		t.Fatalf("pgtest: creating a database: %v", err)
	}
	t.Cleanup(func() {
		admin, err := sql.Open("pgx", server+"postgres")
		if err != nil {
			return
		}
		defer admin.Close()
		admin.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`)
	})
	u, _ := url.Parse(server)
	u.Path = "/" + name
	return u.String()
}
