package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"golang.org/x/term"

	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/photo"
)

const usersUsage = `Usage:
  syriamap users add [--db PATH] [--password-stdin] NAME   add an editor (asks for the password twice)
  syriamap users passwd [--db PATH] [--password-stdin] NAME  change an editor's password (ends all their sessions)
  syriamap users list [--db PATH]                          the editors
  syriamap users remove [--db PATH] NAME                   remove an editor (their changes stay)
  syriamap users code [--db PATH] [--valid 1h] NAME        a one-time code to sign in from a new browser
                                                           when others' wrong passwords have blocked it

The server takes corrections only once an archive has editors.`

// runUsers manages the archive's editors.
func runUsers(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usersUsage)
		return usageError{"users: want add, passwd, list, remove or code"}
	}
	fl := flag.NewFlagSet("users "+args[0], flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { fmt.Fprintln(stderr, usersUsage) }
	db := dbFlag(fl)
	fromStdin := fl.Bool("password-stdin", false, "read the password from the first line of standard input")
	valid := fl.Duration("valid", time.Hour, "for code: how long the code may be used")
	if help, err := parseFlags(fl, args[1:]); help || err != nil {
		return err
	}
	switch args[0] {
	case "add", "passwd":
		if fl.NArg() != 1 || !validName(fl.Arg(0)) {
			return usageError{"users " + args[0] + ": give one name: letters, digits, '.', '-' or '_', 1 to 64 of them"}
		}
		password, err := readPassword(stdin, stderr, *fromStdin)
		if err != nil {
			return err
		}
		hash, err := auth.HashPassword(password)
		if err != nil {
			return usageError{"users " + args[0] + ": " + err.Error()}
		}
		a, closeDB, err := openArchive(ctx, *db, openWrite, stderr)
		if err != nil {
			return err
		}
		defer closeDB()
		if args[0] == "passwd" {
			if err := a.SetPassword(ctx, fl.Arg(0), hash, ""); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s's password is changed; every session of theirs has ended\n", fl.Arg(0))
			break
		}
		if err := a.AddEditor(ctx, fl.Arg(0), hash); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s can now sign in and correct photos\n", fl.Arg(0))
	case "remove":
		if fl.NArg() != 1 {
			return usageError{"users remove: give one name"}
		}
		a, closeDB, err := openArchive(ctx, *db, openWrite, stderr)
		if err != nil {
			return err
		}
		defer closeDB()
		if err := a.RemoveEditor(ctx, fl.Arg(0)); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s is no longer an editor; their changes stay under their name\n", fl.Arg(0))
	case "code":
		if fl.NArg() != 1 || *valid <= 0 || *valid > 24*time.Hour {
			return usageError{"users code: give one name, and --valid between a second and 24h"}
		}
		a, closeDB, err := openArchive(ctx, *db, openWrite, stderr)
		if err != nil {
			return err
		}
		defer closeDB()
		users, err := a.Editors(ctx)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(users, func(u photo.User) bool { return strings.EqualFold(u.Name, fl.Arg(0)) }) {
			return photo.Errorf(photo.ENotFound, "no editor is called %q (syriamap users list)", fl.Arg(0))
		}
		code := auth.NewSecret()
		expires := time.Now().Add(*valid)
		if err := a.AddSignInCode(ctx, auth.HashSecret(code), fl.Arg(0), expires); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", code)
		fmt.Fprintf(stderr, "a one-time code for %s, until %s: give it to them by another channel than email if you can; it signs in one new browser, with their password\n",
			fl.Arg(0), expires.UTC().Format("2006-01-02 15:04 UTC"))
	case "list":
		a, closeDB, err := openArchive(ctx, *db, openReadOnly, stderr)
		if err != nil {
			return err
		}
		defer closeDB()
		users, err := a.Editors(ctx)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(w, "NAME\tSINCE\tTOKENS")
		for _, u := range users {
			fmt.Fprintf(w, "%s\t%s\t%d\n", u.Name, u.Created.Format("2006-01-02"), u.Tokens)
		}
		w.Flush()
		if len(users) == 0 {
			fmt.Fprintln(stdout, "no editors: the server is read-only (syriamap users add NAME)")
		}
	default:
		fmt.Fprintln(stderr, usersUsage)
		return usageError{"users: unknown subcommand " + args[0]}
	}
	return nil
}

// validName reports whether an editor's name is plain: it appears in
// events, logs and URLs.
func validName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '-' && r != '_' {
			return false
		}
	}
	return true
}

// readPassword reads a new password: from the first line of stdin, or
// twice from the terminal without echo.
func readPassword(stdin io.Reader, stderr io.Writer, fromStdin bool) (string, error) {
	if fromStdin {
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("reading the password: %w", err)
		}
		return strings.TrimRight(line, "\r\n"), nil
	}
	f, ok := stdin.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return "", usageError{"no terminal to ask for the password on; give it with --password-stdin"}
	}
	fmt.Fprint(stderr, "Password (10 characters or more): ")
	a, err := term.ReadPassword(int(f.Fd()))
	fmt.Fprintln(stderr)
	if err != nil {
		return "", err
	}
	fmt.Fprint(stderr, "The same again: ")
	b, err := term.ReadPassword(int(f.Fd()))
	fmt.Fprintln(stderr)
	if err != nil {
		return "", err
	}
	if string(a) != string(b) {
		return "", usageError{"the two passwords differ"}
	}
	return string(a), nil
}

const tokensUsage = `Usage:
  syriamap tokens create [--db PATH] [--label TEXT] NAME   print a new bearer token for editor NAME

The token is printed once, alone on a line, and stored only as its hash: scripts send it as
"Authorization: Bearer TOKEN" to the write API.`

// runTokens makes bearer tokens for scripts.
func runTokens(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		fmt.Fprintln(stderr, tokensUsage)
		return usageError{"tokens: want create"}
	}
	fl := flag.NewFlagSet("tokens create", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { fmt.Fprintln(stderr, tokensUsage) }
	db := dbFlag(fl)
	label := fl.String("label", "", "what the token is for")
	if help, err := parseFlags(fl, args[1:]); help || err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return usageError{"tokens create: give the editor's name"}
	}
	a, closeDB, err := openArchive(ctx, *db, openWrite, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	token := auth.NewSecret()
	if err := a.AddToken(ctx, fl.Arg(0), *label, auth.HashSecret(token)); err != nil {
		return err
	}
	fmt.Fprintln(stdout, token)
	return nil
}

const correctionsUsage = `Usage:
  syriamap corrections export [--db PATH] > FILE.jsonl   every correction, confirmation and fix, a JSON object a line
  syriamap corrections import [--db PATH] FILE.jsonl     apply another archive's, matched by photo id`

// runCorrections moves a team's corrections between archives.
func runCorrections(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "export" && args[0] != "import" {
		fmt.Fprintln(stderr, correctionsUsage)
		return usageError{"corrections: want export or import"}
	}
	fl := flag.NewFlagSet("corrections "+args[0], flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { fmt.Fprintln(stderr, correctionsUsage) }
	db := dbFlag(fl)
	if help, err := parseFlags(fl, args[1:]); help || err != nil {
		return err
	}
	if args[0] == "export" {
		a, closeDB, err := openArchive(ctx, *db, openReadOnly, stderr)
		if err != nil {
			return err
		}
		defer closeDB()
		n, err := a.ExportCorrections(ctx, stdout)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "corrections of %d photo%s exported\n", n, map[bool]string{true: "", false: "s"}[n == 1])
		return nil
	}
	if fl.NArg() != 1 {
		return usageError{"corrections import: give one file"}
	}
	f, err := os.Open(fl.Arg(0))
	if err != nil {
		return fmt.Errorf("reading corrections: %w", err)
	}
	defer f.Close()
	a, closeDB, err := openArchive(ctx, *db, openWrite, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	rep, err := a.ImportCorrections(ctx, f, fl.Arg(0))
	if err != nil {
		return err
	}
	for _, l := range rep.Lines {
		fmt.Fprintln(stderr, l)
	}
	fmt.Fprintf(stdout, "%d applied, %d skipped, %d in conflict (not applied)\n", rep.Applied, rep.Skipped, rep.Conflicts)
	return nil
}

const storiesUsage = `Usage:
  syriamap stories export [--db PATH] > stories.jsonl         every story, drafts too, one a line
  syriamap stories import [--db PATH] [--replace] FILE        add them to this archive

A story whose slug the archive has is skipped, or replaced with --replace;
a photo this archive lacks stays in its step by the caption it had.`

// runStories moves stories between archives as JSON Lines.
func runStories(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "export" && args[0] != "import" {
		fmt.Fprintln(stderr, storiesUsage)
		return usageError{"stories: want export or import"}
	}
	fl := flag.NewFlagSet("stories "+args[0], flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { fmt.Fprintln(stderr, storiesUsage) }
	db := dbFlag(fl)
	replace := fl.Bool("replace", false, "replace the stories whose slugs the archive has")
	if help, err := parseFlags(fl, args[1:]); help || err != nil {
		return err
	}
	if args[0] == "export" {
		a, closeDB, err := openArchive(ctx, *db, openReadOnly, stderr)
		if err != nil {
			return err
		}
		defer closeDB()
		n, err := a.ExportStories(ctx, stdout)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "%d stor%s exported\n", n, map[bool]string{true: "y", false: "ies"}[n == 1])
		return nil
	}
	if fl.NArg() != 1 {
		return usageError{"stories import: give one file"}
	}
	f, err := os.Open(fl.Arg(0))
	if err != nil {
		return fmt.Errorf("reading stories: %w", err)
	}
	defer f.Close()
	a, closeDB, err := openArchive(ctx, *db, openWrite, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	rep, err := a.ImportStories(ctx, f, fl.Arg(0), *replace)
	for _, l := range rep.Lines {
		fmt.Fprintln(stderr, l)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d imported, %d replaced, %d skipped\n", rep.Imported, rep.Replaced, rep.Skipped)
	return nil
}
