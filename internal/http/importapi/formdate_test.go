package importapi_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/httpapi/servertest"
	"github.com/syriamap/syriamap/internal/http/importapi"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestUploadFormDate (issue 69, item 1): the date an editor gives an
// upload's photos on its form — a multipart field, or "date" beside the
// resumable uploads' ids — dates those whose caption and file give none,
// as the editor's; a photo whose caption has a date keeps it; a date that
// is none is refused, naming it, before anything is imported.
func TestUploadFormDate(t *testing.T) {
	e := servertest.Sample(t, httpapi.Options{Uploads: t.TempDir(), UploadLimits: importapi.Limits{FileBytes: 1 << 20, UploadBytes: 4 << 20}})
	bearer := []string{"Authorization", "Bearer " + e.Token}
	post := func(date, name, body string) (*http.Response, string) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		mw.WriteField("date", date)
		w, _ := mw.CreateFormFile("files", name)
		w.Write([]byte(body))
		mw.Close()
		return httpapitest.Do(t, nil, "POST", e.TS.URL+"/api/imports", b.String(), append([]string{"Content-Type", mw.FormDataContentType()}, bearer...)...)
	}
	if res, body := post("2018-02-30", "bad.txt", "Smoke rises over Nawa.\n"); res.StatusCode != http.StatusBadRequest || !strings.Contains(body, "date") {
		t.Errorf("an impossible date: %d %s, want 400 naming the date", res.StatusCode, body)
	}
	undated, dated := "Smoke rises over Nawa after shelling.", "Smoke rises over Nawa, July 1, 2018."
	res, body := post("2018-07-20", "form.txt", undated+"\n\n"+dated+"\n")
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("upload: %d %s", res.StatusCode, body)
	}
	if job := waitJob(t, e, res.Header.Get("Location")); job.Date != "2018-07-20" {
		t.Errorf("the job's date %q, want 2018-07-20", job.Date)
	}
	// Through the page's resumable uploads.
	caption := "Smoke rises over Busra on Sunday."
	tusRes, _ := httpapitest.Do(t, nil, "POST", e.TS.URL+"/api/uploads/", "", append([]string{"Tus-Resumable", "1.0.0", "Upload-Length", strconv.Itoa(len(caption)),
		"Upload-Metadata", "filename " + base64.StdEncoding.EncodeToString([]byte("resumed.txt"))}, bearer...)...)
	loc := tusRes.Header.Get("Location")
	path := loc[strings.Index(loc, "/api/uploads/"):]
	if res, _ := httpapitest.Do(t, nil, "PATCH", e.TS.URL+path, caption, append([]string{"Tus-Resumable", "1.0.0", "Upload-Offset", "0",
		"Content-Type", "application/offset+octet-stream"}, bearer...)...); res.StatusCode != http.StatusNoContent {
		t.Fatalf("the resumable upload: %d", res.StatusCode)
	}
	res, body = httpapitest.Do(t, nil, "POST", e.TS.URL+"/api/imports", `{"uploads": ["`+strings.TrimPrefix(path, "/api/uploads/")+`"], "date": "2018-07-17"}`,
		append(bearer, "Content-Type", "application/json")...)
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("import the upload: %d %s", res.StatusCode, body)
	}
	waitJob(t, e, res.Header.Get("Location"))
	for _, c := range []struct{ caption, want, source string }{
		{undated, "2018-07-20", photo.DateEditor},
		{dated, "2018-07-01", photo.DateCaption},
		{caption, "2018-07-15", photo.DateCaption}, // the Sunday before the form's Tuesday
	} {
		p, err := e.A.Photo(context.Background(), photo.ID(c.caption))
		if err != nil || p.Date.String() != c.want || p.DateSource != c.source {
			t.Errorf("%s: date %q from %q (%v), want %q from %q", c.caption, p.Date, p.DateSource, err, c.want, c.source)
		}
	}
}
