package pdq

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/syriamap/syriamap/internal/photo"
)

// Listed is one hash of a list another archive hands over (ReadList).
type Listed struct {
	Hash Hash256
	// Quality is the quality the list gives the hash (0–100), -1 when it
	// gives none.
	Quality int
	// Label is what the list says of the hash (a file name, an id), ""
	// when nothing.
	Label string
	// Line is the line of the list it is on, from 1.
	Line int
}

// maxLine is the longest line ReadList reads: a hash, a quality and a
// label are far shorter.
const maxLine = 64 << 10

// ReadList reads a list of PDQ hashes in the shapes ThreatExchange's tools
// write and read, one hash a line (name is the list's, for errors):
//
//	HASH                         a hash alone
//	HASH LABEL                   a hash, white space, a label
//	HASH,LABEL                   hashtool256 and clusterize256's input: the rest of the line after the first comma is the label
//	HASH,QUALITY,LABEL           pdq-photo-hasher's output (and its --pdqdih, eight lines a picture); QUALITY is 0–100
//	HASH,QUALITY                 the same without a label
//	H1,…,H8,QUALITY,LABEL        pdq-photo-hasher --pdqdih-across: eight hashes of one picture (each listed alone)
//	hash=HASH,quality=Q,filename=F,…   pdq-photo-hasher --details (xform=rot90 and so on kept in the label)
//	pdq HASH                     python-threatexchange's `threatexchange hash photo`
//
// A hash is 64 hex digits, either case. Blank lines and lines starting
// with # are skipped. A quality is read only after a comma: in "HASH 12
// killed" 12 is the label's. A line that is none of these is an EInvalid
// error naming it ("FILE:12: not a PDQ hash: …"), and nothing is
// returned: a list is read whole or not at all. Labels are valid UTF-8,
// without control characters (replaced by spaces).
func ReadList(r io.Reader, name string) ([]Listed, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	var out []Listed
	n := 0
	for sc.Scan() {
		n++
		text := sc.Bytes()
		if n == 1 {
			text = bytes.TrimPrefix(text, []byte("\uFEFF"))
		}
		line := strings.TrimSpace(string(text))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		got, err := parseLine(line)
		if err != nil {
			return nil, photo.Errorf(photo.EInvalid, "%s:%d: %s", name, n, err.Error())
		}
		for _, l := range got {
			l.Line = n
			out = append(out, l)
		}
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, photo.Errorf(photo.EInvalid, "%s:%d: a line longer than %d bytes is no PDQ hash's", name, n+1, maxLine)
		}
		return nil, photo.Errorf(photo.EInvalid, "%s: %v", name, err)
	}
	return out, nil
}

// lineError is what is wrong with a line, without its place.
type lineError string

func (e lineError) Error() string { return string(e) }

// parseLine reads one line that is not blank nor a comment, trimmed.
func parseLine(line string) ([]Listed, error) {
	if strings.HasPrefix(line, "hash=") {
		return parseDetails(line)
	}
	if rest, ok := strings.CutPrefix(line, "pdq "); ok {
		line = strings.TrimSpace(rest)
	}
	h, rest, ok := cutHash(line)
	if !ok {
		return nil, notAHash(line)
	}
	if rest == "" {
		return []Listed{{Hash: h, Quality: -1}}, nil
	}
	if rest[0] != ',' {
		if !unicode.IsSpace(rune(rest[0])) {
			return nil, notAHash(line)
		}
		return []Listed{{Hash: h, Quality: -1, Label: cleanLabel(rest)}}, nil
	}
	hashes, rest := dihedralAcross(h, rest[1:])
	quality := -1
	field, after, _ := strings.Cut(rest, ",")
	if q, err := strconv.Atoi(strings.TrimSpace(field)); err == nil && q >= 0 && q <= 100 {
		quality, rest = q, after
	} else if len(hashes) > 1 {
		return nil, lineError("eight hashes of one picture are followed by their quality (0–100), not " + strconv.Quote(field))
	}
	out := make([]Listed, len(hashes))
	for i, h := range hashes {
		out[i] = Listed{Hash: h, Quality: quality, Label: cleanLabel(rest)}
	}
	return out, nil
}

// dihedralAcross reads the seven other hashes of pdq-photo-hasher
// --pdqdih-across (a picture's eight on one line) that rest, after h and
// its comma, starts with: h and them, and what follows their comma. When
// rest starts with no seven hashes, it is h alone and rest as it is.
func dihedralAcross(h Hash256, rest string) ([]Hash256, string) {
	hashes, after := []Hash256{h}, rest
	for len(hashes) < 8 {
		more, next, ok := cutHash(after)
		if !ok || next != "" && next[0] != ',' {
			return []Hash256{h}, rest
		}
		hashes, after = append(hashes, more), strings.TrimPrefix(next, ",")
	}
	return hashes, after
}

// parseDetails reads pdq-photo-hasher --details' key=value line.
func parseDetails(line string) ([]Listed, error) {
	l := Listed{Quality: -1}
	var xform string
	hashed := false
	for i, kv := range strings.Split(line, ",") {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case i == 0:
			h, err := Parse(v)
			if err != nil {
				return nil, notAHash(line)
			}
			l.Hash, hashed = h, true
		case k == "quality":
			q, err := strconv.Atoi(v)
			if err != nil || q < 0 || q > 100 {
				return nil, lineError("its quality is 0–100, not " + strconv.Quote(v))
			}
			l.Quality = q
		case k == "filename":
			// The file name is the line's last field and may hold commas.
			_, l.Label, _ = strings.Cut(line, ",filename=")
		case k == "xform" && v != "orig":
			xform = v
		}
		if k == "filename" {
			break
		}
	}
	if !hashed {
		return nil, notAHash(line)
	}
	l.Label = cleanLabel(l.Label)
	if xform != "" {
		l.Label = strings.TrimSpace(l.Label + " xform=" + cleanLabel(xform))
	}
	return []Listed{l}, nil
}

// cutHash reads the 64 hex digits s starts with.
func cutHash(s string) (Hash256, string, bool) {
	if len(s) < 64 {
		return Hash256{}, s, false
	}
	h, err := Parse(s[:64])
	if err != nil {
		return Hash256{}, s, false
	}
	return h, s[64:], true
}

// notAHash is the error of a line that does not start with a hash.
func notAHash(line string) error {
	if len(line) > 80 {
		line = line[:80] + "…"
	}
	return lineError("not a PDQ hash: " + strconv.Quote(line))
}

// cleanLabel is s trimmed, valid UTF-8, its control characters spaces.
func cleanLabel(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// ListLine is one line of a list as pdq-photo-hasher writes it and
// ReadList reads it: "HASH,QUALITY,LABEL" and a newline, the label's line
// breaks and control characters made spaces.
func ListLine(h Hash256, quality int, label string) string {
	return h.String() + "," + strconv.Itoa(quality) + "," + cleanLabel(label) + "\n"
}
