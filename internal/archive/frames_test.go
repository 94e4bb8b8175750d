package archive

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/syriamap/syriamap/internal/evidence/framehash"
	"github.com/syriamap/syriamap/internal/evidence/imagemeta"
	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/photo"
)

// importFrames imports five JPEGs (a frame re-captioned elsewhere and
// mirrored, a market's frame twice under agreeing captions, another
// picture) and returns the archive and a reader of a photo by the start
// of its caption.
func importFrames(t *testing.T) (*Archive, func(prefix string) *photo.Photo) {
	t.Helper()
	return importFramesHashing(t, false)
}

// importFramesOnArrival is importFrames hashing each frame as it arrives.
func importFramesOnArrival(t *testing.T) (*Archive, func(prefix string) *photo.Photo) {
	t.Helper()
	return importFramesHashing(t, true)
}

func importFramesHashing(t *testing.T, onArrival bool) (*Archive, func(prefix string) *photo.Photo) {
	t.Helper()
	a := newArchive(t)
	a.FramesLater = !onArrival // later: what `syriamap frames` does
	dir := t.TempDir()
	var err error
	if a.Originals, err = originals.NewDir(filepath.Join(dir, "originals")); err != nil {
		t.Fatal(err)
	}
	street, market, other := picture(1), picture(2), picture(3)
	photos := filepath.Join(dir, "in")
	os.MkdirAll(photos, 0o755)
	write := func(name string, img image.Image, quality int, caption string) {
		var b bytes.Buffer
		jpeg.Encode(&b, img, &jpeg.Options{Quality: quality})
		body := b.Bytes()
		out := append(append(append([]byte{}, body[:2]...), imagemeta.IIMSegment(map[int][]string{120: {caption}})...), body[2:]...)
		if err := os.WriteFile(filepath.Join(photos, name), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("first.jpg", street, 92, "Men walk through rubble in Aleppo, Syria, May 12, 2013. (AP Photo/Hussein Malla)")
	write("reused.jpg", flip(street), 60, "A man walks in a destroyed street in Idlib, Syria, March 3, 2016. (Photo by Omar Haj Kadour/AFP)")
	write("market.jpg", market, 92, "People shop in a market in Damascus, Syria, June 2, 2015. REUTERS/Omar Sanadiki")
	write("market-again.jpg", market, 70, "Syrians shop at a market in Damascus, Syria, June 3, 2015. REUTERS/Omar Sanadiki")
	write("other.jpg", other, 92, "A boy sits near a tent in Ras al-Ain, Syria, January 22, 2017. (Photo by Rodi Said/Reuters)")
	ctx := context.Background()
	if _, err := a.ImportImages(ctx, []string{photos}, nil, nil); err != nil {
		t.Fatal(err)
	}
	byCaption := func(prefix string) *photo.Photo {
		t.Helper()
		ps, err := a.Photos(ctx, photo.Filter{Query: prefix})
		if err != nil || len(ps) != 1 {
			t.Fatalf("%q: %d photos, %v", prefix, len(ps), err)
		}
		p, _ := a.db.Photo(ctx, ps[0].ID)
		return p
	}
	return a, byCaption
}

// TestFramesCatchAReusedPhoto (issue 42, part 4): a frame imported as
// Aleppo in May 2013 comes again mirrored and recompressed, captioned
// Idlib 2016: that copy is flagged reused, a conflict, of the first; a
// copy of another frame whose caption agrees is a copy, not a conflict;
// a different picture is neither. The flags are custody records, the
// API filter finds the conflict.
func TestFramesCatchAReusedPhoto(t *testing.T) {
	a, byCaption := importFrames(t)
	ctx := context.Background()
	r, err := a.Frames(ctx, "syriamap frames, test", nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Hashed != 5 || r.Groups != 2 || r.Conflicts != 1 || r.Copies != 1 {
		t.Fatalf("frames: %+v; want 5 hashed, 2 groups, 1 conflict, 1 copy", r)
	}
	first, reused := byCaption(`"Men walk through rubble"`), byCaption(`"A man walks in a destroyed street"`)
	if reused.Reuse != photo.ReuseConflict || reused.ReuseOf != first.ID {
		t.Errorf("the re-captioned copy: reuse %q of %q, want conflict of %s", reused.Reuse, reused.ReuseOf, first.ID)
	}
	if first.Reuse != photo.ReuseCopy || byCaption(`"Syrians shop at a market"`).Reuse != photo.ReuseCopy || byCaption(`"A boy sits near a tent"`).Reuse != "" {
		t.Errorf("first %q, the market's copy %q, the other %q", first.Reuse, byCaption(`"Syrians shop at a market"`).Reuse, byCaption(`"A boy sits near a tent"`).Reuse)
	}
	conflicts, err := a.Photos(ctx, photo.Filter{Reuse: photo.ReuseConflict})
	if err != nil || len(conflicts) != 1 || conflicts[0].ID != reused.ID {
		t.Errorf("reuse=conflict: %d photos, %v", len(conflicts), err)
	}
	recs, _ := a.db.CustodyOf(ctx, reused.ID)
	if last := recs[len(recs)-1]; last.Action != "reuse" || last.Actor != "syriamap frames, test" {
		t.Errorf("the flag's custody record: %+v", last)
	}
	// Again: nothing new to hash, nothing changes.
	if r, err := a.Frames(ctx, "test", nil); err != nil || r.Hashed != 0 || r.Changed != 0 || r.Conflicts != 1 {
		t.Errorf("again: %+v, %v", r, err)
	}
}

// TestWithheldFrameMakesNoCopy (issue 55, 3): frame groups are the
// public's, whoever withholds a photo.
func TestWithheldFrameMakesNoCopy(t *testing.T) {
	a, byCaption := importFrames(t)
	ctx := context.Background()
	if _, err := a.Frames(ctx, "syriamap frames, test", nil); err != nil {
		t.Fatal(err)
	}
	first := byCaption(`"Men walk through rubble"`)
	// An editor withholds the first: the frame groups are the public's,
	// whoever withholds, so the re-captioned copy is no longer a copy of
	// anything a reader may see (issue 55, 3: frame groups with withheld
	// photos), and the market's pair stays as it was.
	editor := photo.AsEditor(ctx, "editor rana")
	if _, err := a.SetHarm(editor, first.ID, photo.HarmWithheld, "editor rana", "a test"); err != nil {
		t.Fatal(err)
	}
	if got := byCaption(`"A man walks in a destroyed street"`); got.Reuse != "" || got.ReuseOf != "" {
		t.Errorf("with the first withheld, the copy's reuse is %q of %q; want none", got.Reuse, got.ReuseOf)
	}
	if got := byCaption(`"Syrians shop at a market"`); got.Reuse != photo.ReuseCopy {
		t.Errorf("with another photo withheld, the market's copy is %q", got.Reuse)
	}
	if _, err := a.SetHarm(editor, first.ID, "", "editor rana", "shown again"); err != nil {
		t.Fatal(err)
	}
	if got := byCaption(`"A man walks in a destroyed street"`); got.Reuse != photo.ReuseConflict || got.ReuseOf != first.ID {
		t.Errorf("with the first shown again, the copy's reuse is %q of %q; want a conflict of %s", got.Reuse, got.ReuseOf, first.ID)
	}
}

// TestImportCatchesAReusedFrame (issue 57, 5): a frame imported as
// Aleppo in May 2013 arrives again, resized and recompressed, captioned
// Idlib 2016: the import itself flags it a conflict of the first, in its
// own transaction with its custody record, and its summary counts it —
// no other command run. A copy under an agreeing caption is a copy.
func TestImportCatchesAReusedFrame(t *testing.T) {
	a, dir := archiveWithOriginals(t)
	var err error
	ctx := context.Background()
	write := func(folder, name string, img image.Image, quality int, caption string) string {
		var b bytes.Buffer
		jpeg.Encode(&b, img, &jpeg.Options{Quality: quality})
		body := b.Bytes()
		out := append(append(append([]byte{}, body[:2]...), imagemeta.IIMSegment(map[int][]string{120: {caption}})...), body[2:]...)
		os.MkdirAll(filepath.Join(dir, folder), 0o755)
		path := filepath.Join(dir, folder, name)
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	street, market := picture(1), picture(2)
	first := write("2013", "first.jpg", street, 92, "Men walk through rubble in Aleppo, Syria, May 12, 2013. (AP Photo/Hussein Malla)")
	write("2013", "market.jpg", market, 92, "People shop in a market in Damascus, Syria, June 2, 2015. REUTERS/Omar Sanadiki")
	if res, err := a.ImportImages(ctx, []string{filepath.Dir(first)}, nil, nil); err != nil || res.Added != 2 || res.Conflicts != 0 {
		t.Fatalf("the first import: %+v, %v", res, err)
	}
	reused := write("2016", "reused.jpg", half(street), 55, "A man walks in a destroyed street in Idlib, Syria, March 3, 2016. (Photo by Omar Haj Kadour/AFP)")
	write("2016", "market-again.jpg", half(market), 70, "Syrians shop at a market in Damascus, Syria, June 3, 2015. REUTERS/Omar Sanadiki")
	res, err := a.ImportImages(ctx, []string{filepath.Dir(reused)}, nil, nil)
	if err != nil || res.Added != 2 || res.Conflicts != 1 || res.Copies != 1 {
		t.Fatalf("the second import: %+v, %v; want 2 added, 1 conflict, 1 copy", res, err)
	}
	byCaption := func(prefix string) *photo.Photo {
		t.Helper()
		ps, err := a.Photos(ctx, photo.Filter{Query: prefix})
		if err != nil || len(ps) != 1 {
			t.Fatalf("%q: %d photos, %v", prefix, len(ps), err)
		}
		p, _ := a.db.Photo(ctx, ps[0].ID)
		return p
	}
	orig, copyOf := byCaption(`"Men walk through rubble"`), byCaption(`"A man walks in a destroyed street"`)
	if copyOf.Reuse != photo.ReuseConflict || copyOf.ReuseOf != orig.ID || orig.Reuse != photo.ReuseCopy {
		t.Errorf("the re-captioned copy: %q of %q (the first: %q); want a conflict of %s", copyOf.Reuse, copyOf.ReuseOf, orig.Reuse, orig.ID)
	}
	if got := byCaption(`"Syrians shop at a market"`).Reuse; got != photo.ReuseCopy {
		t.Errorf("the market's copy: %q, want copy", got)
	}
	recs, _ := a.db.CustodyOf(ctx, copyOf.ID)
	if len(recs) != 2 || recs[0].Action != "import" || recs[1].Action != "reuse" || recs[0].At != recs[1].At {
		t.Errorf("the copy's custody: %+v; want its import and its flag, of one moment", recs)
	}
	// Copies of one frame in one import: each flag recorded once.
	for i, c := range []string{"A girl stands in Homs, Syria, May 2, 2014. REUTERS/Omar Sanadiki", "A girl stands in Homs, Syria, May 2, 2014. REUTERS/Omar Sanadiki (again)",
		"A girl stands in Homs, Syria, May 3, 2014. REUTERS/Omar Sanadiki (a third time)"} {
		write("2014", fmt.Sprintf("girl-%d.jpg", i), picture(4), 90-10*i, c)
	}
	if res, err := a.ImportImages(ctx, []string{filepath.Join(dir, "2014")}, nil, nil); err != nil || res.Copies != 2 {
		t.Fatalf("three copies in one import: %+v, %v", res, err)
	}
	girls, _ := a.Photos(ctx, photo.Filter{Query: "girl"})
	for _, g := range girls {
		if recs, _ := a.db.CustodyOf(ctx, g.ID); len(recs) != 2 {
			t.Errorf("%s: %d custody records, want its import and one flag", g.ID, len(recs))
		}
	}
	// frames, run after, finds what the import found.
	if r, err := a.Frames(ctx, "test", nil); err != nil || r.Hashed != 0 || r.Conflicts != 1 {
		t.Errorf("frames after: %+v, %v", r, err)
	}
}

// half is img at half its size, each pixel the mean of four.
func half(img image.Image) image.Image {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx()/2, b.Dy()/2))
	for y := range b.Dy() / 2 {
		for x := range b.Dx() / 2 {
			var r, g, bl uint32
			for _, d := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				cr, cg, cb, _ := img.At(b.Min.X+2*x+d[0], b.Min.Y+2*y+d[1]).RGBA()
				r, g, bl = r+cr, g+cg, bl+cb
			}
			out.Set(x, y, color.RGBA{uint8(r / 4 >> 8), uint8(g / 4 >> 8), uint8(bl / 4 >> 8), 255})
		}
	}
	return out
}

// picture is a street scene of its own: a sky, a horizon and blocks of
// buildings and rubble in colours drawn from seed.
func picture(seed uint64) image.Image {
	r := rand.New(rand.NewPCG(seed, seed*7+1))
	img := image.NewRGBA(image.Rect(0, 0, 480, 320))
	horizon := 80 + r.IntN(160)
	for y := range 320 {
		for x := range 480 {
			v := uint8(60 + y/3 + r.IntN(12))
			if y < horizon {
				img.Set(x, y, color.RGBA{v, v + 20, 200, 255})
			} else {
				img.Set(x, y, color.RGBA{v + 40, v, v / 2, 255})
			}
		}
	}
	for range 12 {
		x0, y0, w, h := r.IntN(480), r.IntN(320), 20+r.IntN(120), 20+r.IntN(120)
		c := color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255}
		for y := y0; y < min(320, y0+h); y++ {
			for x := x0; x < min(480, x0+w); x++ {
				img.Set(x, y, c)
			}
		}
	}
	return img
}

func flip(img image.Image) image.Image {
	b := img.Bounds()
	out := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.Set(b.Max.X-1-(x-b.Min.X), y, img.At(x, y))
		}
	}
	return out
}

// TestOlderBy: a frame known more than a month before the date a caption
// claims is older than the event it names; a month or less, a later
// frame, or a date unknown is not.
func TestOlderBy(t *testing.T) {
	day := func(y, m, d int) photo.Date { return photo.Date{Year: y, Month: m, Day: d, Precision: "day"} }
	for _, tc := range []struct {
		known, claimed photo.Date
		want           int
	}{
		{day(2013, 5, 12), day(2016, 3, 3), 1026},
		{day(2016, 1, 31), day(2016, 3, 3), 32}, // 2016 is a leap year
		{day(2016, 2, 1), day(2016, 3, 3), 0},   // 31 days: a month
		{day(2016, 3, 3), day(2013, 5, 12), 0},
		{photo.Date{}, day(2016, 3, 3), 0},
		{photo.Date{Year: 2013, Precision: "year"}, day(2013, 3, 3), 61},
	} {
		if got := OlderBy(tc.known, tc.claimed); got != tc.want {
			t.Errorf("OlderBy(%s, %s) = %d, want %d", tc.known, tc.claimed, got, tc.want)
		}
	}
}

// arrivingImport writes pictures with IIM captions into a folder of dir
// and imports it, as editor (the HTTP import's context) when not "".
func arrivingImport(t *testing.T, a *Archive, dir, folder, editor string, pics map[string]image.Image, captions map[string]string) ImageResult {
	t.Helper()
	for name, img := range pics {
		var b bytes.Buffer
		jpeg.Encode(&b, img, &jpeg.Options{Quality: 85})
		body := b.Bytes()
		out := append(append(append([]byte{}, body[:2]...), imagemeta.IIMSegment(map[int][]string{120: {captions[name]}})...), body[2:]...)
		os.MkdirAll(filepath.Join(dir, folder), 0o755)
		if err := os.WriteFile(filepath.Join(dir, folder, name), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	if editor != "" {
		ctx = photo.AsEditor(ctx, editor)
	}
	res, err := a.ImportImages(ctx, []string{filepath.Join(dir, folder)}, nil, nil)
	if err != nil {
		t.Fatalf("importing %s: %v", folder, err)
	}
	return res
}

// TestArrivalCatchesAMirroredCopy (issue 67, 4c): a frame arrives again
// mirrored, under a caption that disagrees: the import flags it a
// conflict of the first, through the mirrored picture's hash.
func TestArrivalCatchesAMirroredCopy(t *testing.T) {
	a, dir := archiveWithOriginals(t)
	var err error
	street := picture(1)
	first := "Men walk through rubble in Aleppo, Syria, May 12, 2013. (AP Photo/Hussein Malla)"
	copied := "A man walks in a destroyed street in Idlib, Syria, March 3, 2016. (Photo by Omar Haj Kadour/AFP)"
	arrivingImport(t, a, dir, "2013", "", map[string]image.Image{"first.jpg": street}, map[string]string{"first.jpg": first})
	res := arrivingImport(t, a, dir, "2016", "", map[string]image.Image{"mirrored.jpg": flip(street)}, map[string]string{"mirrored.jpg": copied})
	got, err := a.db.Photo(context.Background(), photo.ID(copied))
	if err != nil {
		t.Fatal(err)
	}
	if res.Conflicts != 1 || got.Reuse != photo.ReuseConflict || got.ReuseOf != photo.ID(first) {
		t.Errorf("a mirrored copy arriving: %+v, its reuse %q of %q; want a conflict of %s", res, got.Reuse, got.ReuseOf, photo.ID(first))
	}
}

// TestArrivalMatchesNoWithheldFrame (issue 67, 4g): re-use on arrival
// reads the public's frames whoever imports: an editor importing a copy
// of a withheld photo's frame does not flag it, which would name the
// withheld photo on a public page.
func TestArrivalMatchesNoWithheldFrame(t *testing.T) {
	a, dir := archiveWithOriginals(t)
	var err error
	street := picture(1)
	first := "Men walk through rubble in Aleppo, Syria, May 12, 2013. (AP Photo/Hussein Malla)"
	copied := "A man walks in a destroyed street in Idlib, Syria, March 3, 2016. (Photo by Omar Haj Kadour/AFP)"
	arrivingImport(t, a, dir, "2013", "rana", map[string]image.Image{"first.jpg": street}, map[string]string{"first.jpg": first})
	editor := photo.AsEditor(context.Background(), "rana")
	if _, err := a.SetHarm(editor, photo.ID(first), photo.HarmWithheld, "rana", "a test"); err != nil {
		t.Fatal(err)
	}
	res := arrivingImport(t, a, dir, "2016", "rana", map[string]image.Image{"again.jpg": half(street)}, map[string]string{"again.jpg": copied})
	got, err := a.db.Photo(editor, photo.ID(copied))
	if err != nil {
		t.Fatal(err)
	}
	if res.Conflicts != 0 || res.Copies != 0 || got.Reuse != "" || got.ReuseOf != "" {
		t.Errorf("a copy of a withheld frame, imported by an editor: %+v, its reuse %q of %q; want none", res, got.Reuse, got.ReuseOf)
	}
	if first, _ := a.db.Photo(editor, photo.ID(first)); first.Reuse != "" {
		t.Errorf("the withheld photo became %q of %q", first.Reuse, first.ReuseOf)
	}
}

// TestDifferentPicturesAreNotOneFrame (issue 70, 2): two different
// pictures whose frame hashes lie within framehash.Radius (12 bits; among
// 10,000 different scenes 0.008 % of pairs do, and groups join through
// their members, which put 2,163 of them into one group:
// BenchmarkGroupsOfDifferentScenes) are not one frame when their PDQ
// hashes say so (120 bits apart; copies lie within 74): neither on
// arrival nor when `frames` regroups.
func TestDifferentPicturesAreNotOneFrame(t *testing.T) {
	a, dir := archiveWithOriginals(t)
	var err error
	first := "Men walk through rubble in Aleppo, Syria, May 12, 2013. (AP Photo/Hussein Malla)"
	other := "A man walks in a destroyed street in Idlib, Syria, March 3, 2016. (Photo by Omar Haj Kadour/AFP)"
	arrivingImport(t, a, dir, "2013", "", map[string]image.Image{"first.jpg": picture(90)}, map[string]string{"first.jpg": first})
	res := arrivingImport(t, a, dir, "2016", "", map[string]image.Image{"other.jpg": picture(186)}, map[string]string{"other.jpg": other})
	ctx := context.Background()
	frames, err := a.db.PhotoFrames(ctx)
	if err != nil || len(frames) != 2 {
		t.Fatalf("frames: %d, %v", len(frames), err)
	}
	if d := framehash.Distance(framehash.Hash(frames[0].Hash), framehash.Hash(frames[1].Hash)); d > framehash.Radius {
		t.Fatalf("the pictures' frame hashes are %d bits apart; the test wants two within %d (the hash changed: find another pair)", d, framehash.Radius)
	}
	if res.Conflicts != 0 || res.Copies != 0 {
		t.Errorf("a different picture arriving: %+v; want neither a conflict nor a copy", res)
	}
	if r, err := a.Frames(ctx, "test", nil); err != nil || r.Groups != 0 {
		t.Errorf("frames: %+v, %v; want no group", r, err)
	}
	for _, c := range []string{first, other} {
		if p, _ := a.db.Photo(ctx, photo.ID(c)); p.Reuse != "" {
			t.Errorf("%s: reuse %q of %q, want none", p.ID, p.Reuse, p.ReuseOf)
		}
	}
}

// TestArrivalSeesAnImportBeside: two imports running side by side (an
// upload's jobs do) each bring a copy of one frame under captions that
// disagree: the one written second finds the first's frame, as it would
// had it run after, and the copy is flagged a conflict.
func TestArrivalSeesAnImportBeside(t *testing.T) {
	a, dir := archiveWithOriginals(t)
	first := "Men walk through rubble in Aleppo, Syria, May 12, 2013. (AP Photo/Hussein Malla) %d"
	copied := "A man walks in a destroyed street in Idlib, Syria, March 3, 2016. (Photo by Omar Haj Kadour/AFP) %d"
	for round := range 4 {
		street := picture(uint64(10 + round))
		var wg sync.WaitGroup
		results := make([]ImageResult, 2)
		for i, c := range []struct {
			img     image.Image
			caption string
		}{{street, fmt.Sprintf(first, round)}, {half(street), fmt.Sprintf(copied, round)}} {
			folder := fmt.Sprintf("round-%d-%d", round, i)
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = arrivingImport(t, a, dir, folder, "", map[string]image.Image{"p.jpg": c.img}, map[string]string{"p.jpg": c.caption})
			}()
		}
		wg.Wait()
		got, err := a.db.Photo(context.Background(), photo.ID(fmt.Sprintf(copied, round)))
		if err != nil {
			t.Fatal(err)
		}
		if want := photo.ID(fmt.Sprintf(first, round)); got.Reuse != photo.ReuseConflict || got.ReuseOf != want {
			t.Errorf("round %d: two imports side by side (%+v, %+v): the copy is %q of %q; want a conflict of %s",
				round, results[0].Summary, results[1].Summary, got.Reuse, got.ReuseOf, want)
		}
	}
}

// TestAnEarlierCopyArrivingIsCounted: a copy dated before the one the
// archive knows its frame from arrives under a caption that disagrees.
// It becomes the frame's first and the photo held becomes its conflict;
// the import says the copy arrived under a caption that disagrees, not
// one that agrees (a trial's import of copies that all disagreed said
// "3 under one that agrees").
func TestAnEarlierCopyArrivingIsCounted(t *testing.T) {
	a, dir := archiveWithOriginals(t)
	var err error
	street := picture(42)
	later := "Men walk through rubble in Idlib, Syria, March 3, 2016. (Photo by Omar Haj Kadour/AFP)"
	earlier := "Men walk through rubble in Aleppo, Syria, May 12, 2013. (AP Photo/Hussein Malla)"
	arrivingImport(t, a, dir, "2016", "", map[string]image.Image{"p.jpg": street}, map[string]string{"p.jpg": later})
	res := arrivingImport(t, a, dir, "2013", "", map[string]image.Image{"p.jpg": half(street)}, map[string]string{"p.jpg": earlier})
	if res.Conflicts != 1 || res.Copies != 0 {
		t.Errorf("an earlier, disagreeing copy arriving: %d conflicts, %d agreeing copies; want 1 and 0", res.Conflicts, res.Copies)
	}
	held, err := a.db.Photo(context.Background(), photo.ID(later))
	if err != nil {
		t.Fatal(err)
	}
	if held.Reuse != photo.ReuseConflict || held.ReuseOf != photo.ID(earlier) {
		t.Errorf("the photo held: %q of %q; want a conflict of the earlier one", held.Reuse, held.ReuseOf)
	}
	// And an earlier copy that agrees is an agreeing copy.
	again := "Men walk through rubble in Idlib, Syria, March 2, 2016. (Photo by Omar Haj Kadour/AFP)"
	res = arrivingImport(t, a, dir, "again", "", map[string]image.Image{"p.jpg": picture(43)}, map[string]string{"p.jpg": again})
	res = arrivingImport(t, a, dir, "again2", "", map[string]image.Image{"p.jpg": half(picture(43))}, map[string]string{"p.jpg": "Men walk through rubble in Idlib, Syria, March 1, 2016. (Photo by Omar Haj Kadour/AFP)"})
	if res.Conflicts != 0 || res.Copies != 1 {
		t.Errorf("an earlier, agreeing copy arriving: %d conflicts, %d agreeing copies; want 0 and 1", res.Conflicts, res.Copies)
	}
}

// TestFramesNamesWhatItCannotDecode: a picture neither the DC-plane
// reader nor the full decoder reads (here an arithmetic-coded frame
// header) is imported unhashed, and `frames` names it, with why, rather
// than only counting it: no later pass will hash it either.
func TestFramesNamesWhatItCannotDecode(t *testing.T) {
	a, dir := archiveWithOriginals(t)
	var err error
	caption := "Men walk through rubble in Aleppo, Syria, May 12, 2013. (AP Photo/Hussein Malla)"
	var b bytes.Buffer
	jpeg.Encode(&b, picture(7), &jpeg.Options{Quality: 85})
	body := b.Bytes()
	sof := bytes.Index(body, []byte{0xFF, 0xC0})
	body[sof+1] = 0xC9 // SOF9: arithmetic coding
	out := append(append(append([]byte{}, body[:2]...), imagemeta.IIMSegment(map[int][]string{120: {caption}})...), body[2:]...)
	os.MkdirAll(filepath.Join(dir, "in"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "in", "arith.jpg"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := a.ImportImages(context.Background(), []string{filepath.Join(dir, "in")}, nil, nil)
	if err != nil || res.Added != 1 || len(res.Unhashed) != 1 || filepath.Base(res.Unhashed[0]) != "arith.jpg" {
		t.Fatalf("import: %+v, unhashed %v, %v; want it imported, named unhashed", res.Summary, res.Unhashed, err)
	}
	r, err := a.Frames(context.Background(), "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Unreadable != 1 || len(r.Undecodable) != 1 || r.Undecodable[0].PhotoID != string(photo.ID(caption)) ||
		!strings.Contains(r.Undecodable[0].Why, "cannot be decoded") {
		t.Errorf("frames: %d unreadable, named %+v; want the photo named, with why", r.Unreadable, r.Undecodable)
	}
}
