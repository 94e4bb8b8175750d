// Package bag exports photos as a BagIt bag (RFC 8493) that a third
// party can check without syriamap: each photo's original as imported,
// its metadata as read, its caption, where it was placed and why, how
// the caption agrees with the file, and its custody records, every file
// listed with its SHA-256 in the bag's manifests (sha256sum -c reads
// them as they are). It is an export beside the published site
// (internal/http/publish): it reads the archive through Archive, the
// reads and the one write it asks of it. `syriamap export-evidence`
// writes a bag to disk; Download serves an editor's, zipped.
package bag

import (
	"bufio"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/photo"
)

// Archive is what an export asks of the archive (*archive.Archive):
// photos as the exporting editor may see them, their custody and the
// chain's links to its head, their events, how a verified placement was
// checked, their originals, and a custody record of the export.
type Archive interface {
	Photos(ctx context.Context, f photo.Filter) ([]photo.Photo, error)
	// Photo reads a photo whole, its file and sources with it.
	Photo(ctx context.Context, id string) (*photo.Photo, error)
	Head(ctx context.Context) (photo.Checkpoint, error)
	Links(ctx context.Context, from, to int64, fn func(photo.CustodyLink) error) error
	CustodyOf(ctx context.Context, photoID string) ([]photo.Custody, error)
	EventLinks(ctx context.Context, id string) ([]photo.EventLink, error)
	Event(ctx context.Context, dataset, id string) (e conflict.Event, retired string, err error)
	// Verification is how photo id's placement was checked by two
	// editors, as a bag records it; ok is false when it never was.
	Verification(ctx context.Context, id string) (v map[string]any, ok bool, err error)
	// OpenOriginal opens an imported file's original by its SHA-256:
	// originals.ErrNotFound when the archive keeps none.
	OpenOriginal(ctx context.Context, sha256 string) (io.ReadCloser, error)
	ReadOnly() bool
	AddCustody(ctx context.Context, actor, action string, entries map[string]any) error
}

// Result is what an export wrote.
type Result struct {
	Photos, Originals int
	Files             int   // payload files
	Bytes             int64 // payload bytes
	// Missing are the photos whose original the store lacks: exported
	// without it, and said so in their record.
	Missing []string
	// Waiting are the photos left out because their placement waits for
	// a second look the exporting editor may not see (another editor's
	// first answer): a bag holds a photo's whole custody, which names it.
	Waiting []string
}

// Export writes the photos f selects into a new bag at out (a folder that
// must not exist, or be empty), as actor, and records the export in each
// photo's custody. A bag is an editor's (the command's, or an editor's
// on the server): the photos withheld from the public go in it too,
// marked so.
func Export(ctx context.Context, a Archive, f photo.Filter, out, actor string) (Result, error) {
	return ExportAs(ctx, a, f, out, out, actor)
}

// ExportAs is Export, the bag named in the custody records as name
// rather than by the folder it is written to: a bag the server writes
// in a temporary folder and sends is recorded by the name it is
// downloaded under, not by the server's path.
func ExportAs(ctx context.Context, a Archive, f photo.Filter, out, name, actor string) (Result, error) {
	var r Result
	if photo.ViewerOf(ctx).Editor == "" { // a command's: the archive's own read
		ctx = photo.WithViewer(ctx, photo.Viewer{Editor: actor, Archive: true})
	}
	viewer := photo.ViewerOf(ctx)
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return r, photo.Errorf(photo.EInvalid, "%s is not empty: a bag is written into a new folder", out)
	}
	photos, err := a.Photos(ctx, f)
	if err != nil {
		return r, err
	}
	// The head the bag is made at: every record of its photos is at or
	// before it, and custody-links.txt leads from them to it.
	head, err := a.Head(ctx)
	if err != nil {
		return r, err
	}
	b := &bag{root: out, sums: map[string]string{}, first: head.Seq + 1}
	exported := map[string]any{}
	for i := range photos {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		p, err := a.Photo(ctx, photos[i].ID) // with its file and sources
		if err != nil {
			return r, err
		}
		if p.AwaitsLook() && !viewer.Archive {
			// Its custody holds answers not every editor may see yet (the
			// first's, and once the second has answered a disagreement,
			// the second's, which its first editor must not read before
			// the third decides): an editor's bag waits for the decision.
			r.Waiting = append(r.Waiting, p.ID)
			continue
		}
		kept, err := b.photo(ctx, a, p)
		if err != nil {
			os.RemoveAll(out)
			return r, fmt.Errorf("evidence: photo %s: %w", p.ID, err)
		}
		r.Photos++
		if kept {
			r.Originals++
		} else if p.File != nil {
			r.Missing = append(r.Missing, p.ID)
		}
		exported[p.ID] = map[string]any{"bag": name}
	}
	if err := b.links(ctx, a, head); err != nil {
		os.RemoveAll(out)
		return r, fmt.Errorf("evidence: the custody links: %w", err)
	}
	info := []string{
		"Bag-Software-Agent: syriamap (https://github.com/syriamap/syriamap)",
		"Bagging-Date: " + time.Now().UTC().Format("2006-01-02"),
		fmt.Sprintf("Payload-Oxum: %d.%d", b.bytes, len(b.sums)),
		"External-Description: Photos of the Syrian war exported from a syriamap archive with their originals,",
		"  metadata as read, captions, placements with their reasons, checks and custody records.",
		fmt.Sprintf("Exported-Photos: %d", r.Photos),
		fmt.Sprintf("Custody-Head: %d %s", head.Seq, head.Hash),
		"Exported-By: " + actor,
	}
	if len(r.Waiting) > 0 {
		info = append(info, "Left-Out-Waiting-For-A-Second-Look: "+strings.Join(r.Waiting, " "))
	}
	if err := b.finish(strings.Join(info, "\n") + "\n"); err != nil {
		os.RemoveAll(out)
		return r, err
	}
	r.Files, r.Bytes = len(b.sums), b.bytes
	if len(exported) > 0 && !a.ReadOnly() {
		if err := a.AddCustody(ctx, actor, "export", exported); err != nil {
			return r, fmt.Errorf("evidence: recording the export: %w", err)
		}
	}
	return r, nil
}

// bag writes payload files under root/data, keeping their sums.
type bag struct {
	root  string
	sums  map[string]string // path under root → SHA-256
	bytes int64
	// first is the earliest custody record of the bag's photos.
	first int64
}

// linksHowTo is how a third party checks, from the bag alone, that the
// bag's photos' custody records are part of one unbroken chain up to the
// head the bag was made at.
const linksHowTo = "custody-links.txt lists every record of the archive's custody chain from the bag's photos' first record " +
	"to the head the bag was made at, one a line: seq, prev (- for the chain's first record) and hash. Check that (1) each line's prev is the hash on the line before it " +
	"and its seq one more; (2) each record in a photo's custody.json appears here with the same seq, prev and hash, and hashes to it " +
	"(custody.json says how); (3) the last line is this head. Records of photos outside the bag appear by their hashes only. " +
	"Compare the head with a checkpoint the archive's team keeps elsewhere (syriamap verify --since reads this file): " +
	"if the archive's chain still holds this head, nothing the bag's records lead to was removed."

// links writes custody-head.json and custody-links.txt: the head the bag
// was made at, and the chain from the bag's first record to it.
func (b *bag) links(ctx context.Context, a Archive, head photo.Checkpoint) error {
	if err := b.writeJSON("data/custody-head.json", map[string]any{"seq": head.Seq, "hash": head.Hash, "at": head.At, "how_to_check": linksHowTo}); err != nil {
		return err
	}
	pr, pw := io.Pipe()
	go func() {
		bw := bufio.NewWriter(pw)
		err := a.Links(ctx, b.first, head.Seq, func(l photo.CustodyLink) error {
			_, err := fmt.Fprintf(bw, "%d %s %s\n", l.Seq, cmp.Or(l.Prev, "-"), l.Hash)
			return err
		})
		if err == nil {
			err = bw.Flush()
		}
		pw.CloseWithError(err)
	}()
	err := b.write("data/custody-links.txt", pr)
	pr.Close()
	return err
}

// write writes one payload file from r.
func (b *bag) write(rel string, r io.Reader) error {
	path := filepath.Join(b.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	b.sums[rel] = hex.EncodeToString(h.Sum(nil))
	b.bytes += n
	return nil
}

func (b *bag) writeJSON(rel string, v any) error {
	body, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return b.write(rel, strings.NewReader(string(body)+"\n"))
}

// photo writes one photo's folder; kept reports whether its original
// was in the store.
func (b *bag) photo(ctx context.Context, a Archive, p *photo.Photo) (kept bool, err error) {
	dir := "data/" + p.ID + "/"
	if err := b.write(dir+"caption.txt", strings.NewReader(p.Caption+"\n")); err != nil {
		return false, err
	}
	record := map[string]any{
		"id": p.ID, "caption": p.Caption, "date": p.Date.String(), "date_precision": p.Date.Precision,
		"photographer": p.Photographer, "agency": p.Agency,
		"placement": placement(p.Place), "geocoder": placement(p.Geocoded), "review": p.Review, "reviewed_by": p.ReviewedBy,
		"check": map[string]any{"agreement": p.Check.Agreement, "note": p.Check.Note, "parts": p.Check.Parts,
			"iptc_city": p.Check.IPTCCity, "iptc_country": p.Check.IPTCCountry, "exif_time": p.Check.EXIFTime},
		"sources": sourceNames(p.Sources),
	}
	if p.Harm != "" {
		// graphic or withheld: whoever receives the bag handles it so
		// (the reason is in the custody records).
		record["harm"] = p.Harm
	}
	if v, ok, err := a.Verification(ctx, p.ID); err != nil {
		return false, err
	} else if ok && p.Verified {
		record["verification"] = v
	}
	if links, err := eventLinks(ctx, a, p.ID); err != nil {
		return false, err
	} else if len(links) > 0 {
		record["events"] = links
	}
	if p.File != nil {
		file := map[string]any{"imported_from": filepath.Base(filepath.FromSlash(p.File.Path)), "size": p.File.Size, "sha256": p.File.SHA256}
		if p.File.PDQ != "" {
			// The picture's PDQ hash (ThreatExchange's), as other
			// archives match it: syriamap frames --export lists it.
			file["pdq"], file["pdq_quality"] = p.File.PDQ, p.File.PDQQuality
		}
		record["file"] = file
		if err := b.write(dir+"metadata.json", strings.NewReader(p.File.Meta+"\n")); err != nil {
			return false, err
		}
		rc, err := a.OpenOriginal(ctx, p.File.SHA256)
		switch {
		case err == nil:
			name := dir + "original" + strings.ToLower(filepath.Ext(p.File.Path))
			err = b.write(name, rc)
			rc.Close()
			if err != nil {
				return false, err
			}
			if b.sums[name] != p.File.SHA256 {
				return false, fmt.Errorf("its original no longer hashes to %s (run syriamap verify)", p.File.SHA256)
			}
			kept = true
		case !errors.Is(err, originals.ErrNotFound):
			return false, err
		}
		if !kept {
			record["original"] = "not in the archive's store of originals (imported before originals were kept, or removed)"
		}
	}
	if err := b.writeJSON(dir+"record.json", record); err != nil {
		return false, err
	}
	custody, err := a.CustodyOf(ctx, p.ID)
	if err != nil {
		return false, err
	}
	if len(custody) > 0 {
		b.first = min(b.first, custody[0].Seq)
	}
	// Compact, not indented: each record's detail is then written byte for
	// byte as it was hashed.
	body, err := json.Marshal(map[string]any{
		"how_to_check": "Each record's hash is the SHA-256 of, in order, prev, seq, photo_id, at, actor, action and detail, " +
			"each preceded by its length in bytes as an 8-byte big-endian number (detail byte for byte as this file writes it); prev is the hash of the archive's record before it " +
			"(the chain runs through every photo's records, so a photo's own records need not follow one another).",
		"records": custodyOrEmpty(custody),
	})
	if err != nil {
		return false, err
	}
	return kept, b.write(dir+"custody.json", strings.NewReader(string(body)+"\n"))
}

// sourceNames are the files a photo came from, by name: the folders of
// the machine that imported them are nobody's business in a bag.
func sourceNames(sources []photo.Source) []photo.Source {
	out := make([]photo.Source, len(sources))
	for i, src := range sources {
		src.File = filepath.Base(filepath.FromSlash(src.File))
		out[i] = src
	}
	return out
}

func custodyOrEmpty(c []photo.Custody) []photo.Custody {
	if c == nil {
		return []photo.Custody{}
	}
	return c
}

func placement(pl photo.Place) map[string]any {
	return map[string]any{"place_id": pl.ID, "name": pl.Name, "kind": pl.Kind, "governorate": pl.Governorate, "country": pl.Country,
		"lon": pl.Lon, "lat": pl.Lat, "located": pl.Located, "precision": pl.Precision, "confidence": pl.Confidence,
		"mention": pl.Mention, "reason": pl.Note, "alternatives": pl.Alternatives}
}

// finish writes the tag files: bagit.txt, bag-info.txt, the payload
// manifest and the tag manifest.
func (b *bag) finish(info string) error {
	tags := map[string]string{}
	put := func(name, body string) error {
		if err := os.WriteFile(filepath.Join(b.root, name), []byte(body), 0o644); err != nil {
			return err
		}
		h := sha256.Sum256([]byte(body))
		tags[name] = hex.EncodeToString(h[:])
		return nil
	}
	if err := os.MkdirAll(b.root, 0o755); err != nil {
		return err
	}
	if err := put("bagit.txt", "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n"); err != nil {
		return err
	}
	if err := put("bag-info.txt", info); err != nil {
		return err
	}
	if err := put("manifest-sha256.txt", manifest(b.sums)); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(b.root, "tagmanifest-sha256.txt"), []byte(manifest(tags)), 0o644)
}

// manifest lists sums as "sum  path" lines, sorted by path (RFC 8493 §2.1.3;
// as sha256sum writes them).
func manifest(sums map[string]string) string {
	paths := make([]string, 0, len(sums))
	for p := range sums {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var s strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&s, "%s  %s\n", sums[p], p)
	}
	return s.String()
}

// eventLinks are the conflict events an editor confirmed photo id
// documents, as its record carries them: a UCDP GED event with its
// fields as read, so that the bag stands alone; an ACLED event by its id
// alone, as ACLED's terms ask.
func eventLinks(ctx context.Context, a Archive, id string) ([]map[string]any, error) {
	links, err := a.EventLinks(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, l := range links {
		if l.Decision != photo.LinkConfirmed {
			continue // a rejection is in the custody records
		}
		m := map[string]any{"dataset": l.Dataset, "version": l.Version, "id": l.EventID, "decision": l.Decision, "by": l.By, "at": l.At}
		if photo.LicenceOf(l.Dataset).Copied {
			e, retired, err := a.Event(ctx, l.Dataset, l.EventID)
			if err != nil {
				return nil, err
			}
			m["event"] = e
			if retired != "" {
				m["retired_in"] = retired
			}
		}
		out = append(out, m)
	}
	return out, nil
}
