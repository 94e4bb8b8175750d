package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/pgtest"
	"github.com/syriamap/syriamap/internal/photo"
)

// conformanceSearches are searches an editor types: words and phrases of
// both scripts, digits of three, prefixes, OR, AND, NOT, brackets and
// the punctuation pasted from captions.
var conformanceSearches = []string{
	"Aleppo", "aleppo", "Douma", "Damascus", "Homs", "Raqqa", "ar-Raqqah", "Idlib OR Idleb", "eastern Ghouta", `"eastern Ghouta"`,
	`"eastern al-Ghouta"`, "al-Assad", "Syria's", "child*", "reb*", `"air strikes"`, `"air strike"*`, "Aleppo OR Homs",
	"Aleppo NOT Reuters", "(Aleppo OR Homs) AND child*", "Aleppo AND (rebel OR rebels)", "REUTERS/Badra Mamet",
	"September 11, 2014", "2014", "٢٠١٤", "۲۰۱۴", "11", "١١ OR 12", "Ghouta*", "al*", "fighters NOT Aleppo", "field hospital",
	"hospital*", "NEAR(air strikes)", "Free Syrian Army", "“Free Syrian Army”", "U.N.", "Jan. 2013", "children's", "2½", "Ḩumaymīm",
	"Aleppo, Syria", "Douma; Syria.", "حلب", "الرقة", "دمشق", `"مدينة حلب"`, "حل*", "حلب OR دمشق", "حلب NOT دمشق", "أطفال", "اطفال",
	"الغوطة الشرقية", "ريف*", "سوريا", "ادلب", "إدلب", "«حلب»", "حلب، سوريا", "قوات النظام", "Aleppo OR حلب", "(حلب OR دمشق) NOT 2016",
	"NEAR(Aleppo city)", "NEAR(rebel fighters)", `NEAR("air strikes" Douma)`, "NEAR(Syria Damascus Reuters)", "NEAR(حلب سوريا)",
	"NEAR(child* hospital)", "NEAR(Assad forces Douma)", "NEAR(Aleppo Aleppo)",
	"verylong*", "verylongverylong*", "Café", "cafe", "CAFE*", "humaymim", "resume", "naive", "ﬁre", "fire", "strasse", "straße",
	"كتب", "كَتَبَ", "حلب", "حَلَبَ", "ك", "🔥", "Homs 🔥", "☢", "Ⅻ", "ⅻ", "o'clock", "it's", "path", `"quoted"`,
	"the", "in OR of", "NOT Aleppo", "Aleppo (Syria)", `"Aleppo`, "OR", "*",
}

// TestSearchSameOnBothEngines: the real captions of ../shared/eval,
// imported into a SQLite archive and a PostgreSQL one, are found by the
// same searches (conformanceSearches, trickySearches): the same photos,
// or the same refusal. It needs PostgreSQL (pgtest), as CI has.
func TestSearchSameOnBothEngines(t *testing.T) {
	captions := append(evalCaptions(t),
		// and the words an index finds hard: one longer than PostgreSQL
		// keeps whole, marks, symbols, quotes, digits of three scripts.
		"A word "+strings.Repeat("verylong", 400)+" in a caption", "Café Ḩumaymīm résumé NAÏVE ﬁre Straße",
		"كَتَبَ الوَلَدُ في حَلَبَ ٢٠١٦ ۲۰۱۷", "Smoke 🔥 over Homs ☢ 2½ km, Ⅻ o'clock; \\path\\ \"quoted\" it's",
	)
	if _, err := pgtest.Bin(); err != nil && os.Getenv("SYRIAMAP_TEST_POSTGRES") == "" {
		t.Skip(err)
	}
	ctx := context.Background()
	var recs []Record
	for i, c := range captions {
		recs = append(recs, Record{Photo: mk(c, "2016-07-12", "AFP", "", "", "", "", 0, 0, 0), Line: i + 1})
	}
	var dbs []*DB
	for _, path := range []string{filepath.Join(t.TempDir(), "a.db"), pgtest.Database(t)} {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.ImportFile(ctx, "eval.jsonl", Records(recs), nil); err != nil {
			t.Fatal(err)
		}
		dbs = append(dbs, db)
	}
	searches := slices.Concat(conformanceSearches, trickySearches)
	found, refused := 0, 0
	for _, q := range searches {
		var answers [2]string
		for i, db := range dbs {
			ps, err := db.Photos(ctx, photo.Filter{Query: q})
			switch {
			case err != nil && photo.ErrorCode(err) == photo.EInvalid:
				answers[i] = "refused: " + err.Error()
			case err != nil:
				t.Fatalf("%s: search %q: %v", db.sql().name, q, err)
			default:
				var got []string
				for _, p := range ps {
					got = append(got, p.ID)
				}
				slices.Sort(got)
				answers[i] = fmt.Sprint(len(got), got)
			}
		}
		if answers[0] != answers[1] {
			t.Errorf("search %q:\n    SQLite %.300s\nPostgreSQL %.300s", q, answers[0], answers[1])
		}
		switch {
		case len(answers[0]) > 8 && answers[0][:8] == "refused:":
			refused++
		case answers[0][:2] != "0 ":
			found++
		}
	}
	t.Logf("%d searches over %d captions: %d find photos, %d are refused", len(searches), len(captions), found, refused)
	if found < len(conformanceSearches)/2 || refused < 10 {
		t.Errorf("only %d searches find photos, %d are refused: the captions or searches are not the eval's", found, refused)
	}
}
