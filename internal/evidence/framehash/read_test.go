package framehash

import (
	"bytes"
	"context"
	"image/jpeg"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/resize"
	"github.com/syriamap/syriamap/internal/resize/bomb"
)

// onlyReader hides a reader's Seek: an original from S3 does not seek.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// TestReadRefusesBombsFromTheirHeader (issue 65, fault 5): the frame
// hash decoded a 30,000 × 30,000 JPEG of 10 MB whole, outside the image
// budget (the server went from 198 MB to 1.7 GB). Read reads the header
// first: a picture over the budget's limits is refused, its size named,
// having allocated next to nothing.
func TestReadRefusesBombsFromTheirHeader(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		file       []byte
	}{
		{"valid flat JPEG, 30,000²", "30000 × 30000 pixels (900 megapixels); syriamap decodes images up to 50 megapixels", bomb.FlatJPEG(30000, 30000, false)},
		{"valid flat progressive JPEG, 12,000²", "12000 × 12000 pixels (144 megapixels)", bomb.FlatJPEG(12000, 12000, true)},
		{"header-only JPEG, 65,000²", "65000 × 65000 pixels", bomb.HeaderJPEG(65000, 65000, false)},
		{"header-only PNG, 30,000²", "30000 × 30000 pixels", bomb.HeaderPNG(30000, 30000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, _, err := Read(context.Background(), resize.New(resize.DefaultBudget), onlyReader{bytes.NewReader(tc.file)})
			runtime.ReadMemStats(&after)
			if photo.ErrorCode(err) != photo.ETooLarge || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a too_large error naming %q", err, tc.want)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
				t.Errorf("refusing it allocated %d bytes; want under 1 MB (the header alone is read)", n)
			}
		})
	}
}

// TestReadHashesWithinTheBudget: a picture within the limits hashes as
// its decoded image does, from a reader that does not seek (an original
// kept in S3); one whose decode would take more than the whole budget is
// refused.
func TestReadHashesWithinTheBudget(t *testing.T) {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, scene(7, 640, 480), &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	decoded, err := jpeg.Decode(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	wantH, wantM := Of(decoded)
	h, m, err := Read(context.Background(), resize.New(4<<20), onlyReader{bytes.NewReader(b.Bytes())})
	if err != nil {
		t.Fatal(err)
	}
	if h != wantH || m != wantM {
		t.Errorf("Read hashed %x/%x, want %x/%x (Of the decoded picture)", h, m, wantH, wantM)
	}
	// Its decode takes about 1.5 MB.
	if _, _, err := Read(context.Background(), resize.New(1<<20), bytes.NewReader(b.Bytes())); photo.ErrorCode(err) != photo.ETooLarge {
		t.Errorf("over a 1 MB budget: err = %v, want too_large", err)
	}
}
