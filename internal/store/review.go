package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
)

// ReviewGroups returns the groups of unchecked photos the filter selects,
// in the order that fixes the most with the least work: the worst first
// (image metadata that disagrees, unplaced, fallbacks, low confidence),
// then the least confident (a review of an unsure answer teaches the
// refitted confidence most), then the largest. A group is the photos whose captions name a place in
// words that fold to one key (MentionKey): case, article and spelling
// aside. It is named as its first photo spells it, and shown at its
// first photo's place: the one its link opens.
//
// At a million photos it stays under a second whatever the filter: one
// pass over the queue's index (photos_review, which holds every column a
// filter reads) counts the groups, then one short read of the index a
// group shown finds its first photo.
func (s *DB) ReviewGroups(ctx context.Context, f photo.Filter, limit int) ([]photo.ReviewGroup, error) {
	return s.reviewGroups(ctx, f, nil, limit)
}

// ReviewGroupsOf returns the groups of unchecked photos the filter
// selects whose mention keys are among keys (every group, with keys nil),
// in no order: each as ReviewGroups counts it, with its Key and Tenths to
// order them by (photo.ReviewGroup.Before), but without its PlaceName
// (ReviewPlaceNames reads those of the groups shown: a read each). A key
// no photo of the filter has any more comes back as no group.
func (s *DB) ReviewGroupsOf(ctx context.Context, f photo.Filter, keys []string) ([]photo.ReviewGroup, error) {
	if keys != nil && len(keys) == 0 {
		return nil, nil
	}
	return s.reviewGroups(ctx, f, keys, -1)
}

// reviewGroups counts the groups of keys (all with nil), the first limit
// of them in the queue's order (all, unordered, with a limit below 0).
func (s *DB) reviewGroups(ctx context.Context, f photo.Filter, keys []string, limit int) ([]photo.ReviewGroup, error) {
	f.Unreviewed = true
	w, args, err := s.filter(ctx, f)
	if err != nil {
		return nil, err
	}
	if keys != nil {
		w += ` AND mention_key IN (` + strings.TrimSuffix(strings.Repeat("?,", len(keys)), ",") + `)`
		for _, k := range keys {
			args = append(args, k)
		}
	}
	// first ranks a photo in the review order (need, confidence in
	// hundredths, then the newest) as a number, the smallest first. The
	// groups come worst first, then those whose first photo is least
	// confident (by tenths), then the largest. A group's example is its
	// photo that ranks first, the first in ReviewIDs' order of those that
	// tie: looked up for the groups listed alone, after one pass over the
	// queue's index.
	const rank = `(4 - need) * 100000000000 + CAST(round(confidence * 100) AS BIGINT) * 100000000 + 99999999 - ifnull(date_from, 0)`
	groups := `SELECT json_group_array(DISTINCT mention) AS spellings, count(*) AS n, min(` + rank + `) AS first,
		sum(CASE WHEN need = 4 THEN 1 ELSE 0 END) AS n4, sum(CASE WHEN need = 3 THEN 1 ELSE 0 END) AS n3,
		sum(CASE WHEN need = 2 THEN 1 ELSE 0 END) AS n2, sum(CASE WHEN need = 1 THEN 1 ELSE 0 END) AS n1, mention_key
		FROM photos INDEXED BY photos_review WHERE ` + w + ` GROUP BY mention_key`
	order := ` ORDER BY g.first / 100000000000, g.first / 1000000000 % 100, g.n DESC, g.mention_key COLLATE BINARY`
	all := slices.Clone(args)
	if limit >= 0 {
		groups = `SELECT * FROM (` + groups + `) g` + order + ` LIMIT ?`
		all = append(all, limit)
	} else {
		order = ""
	}
	all = append(all, args...)
	var out []photo.ReviewGroup
	err = s.reading(ctx, f.Query, "listing photos to review", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT e.id, e.mention, e.place_id, g.spellings, g.n, g.first, g.n4, g.n3, g.n2, g.n1, g.mention_key
			FROM (`+groups+`) g JOIN photos e ON e.id = (SELECT id FROM photos INDEXED BY photos_review
				WHERE mention_key = g.mention_key AND `+w+` AND `+rank+` = g.first ORDER BY `+reviewOrder+` LIMIT 1)`+order, all...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var g photo.ReviewGroup
			var spellings string
			var first int64
			if err := rows.Scan(&g.Example, &g.Mention, &g.PlaceID, &spellings, &g.Photos, &first, &g.Disagrees, &g.Unplaced, &g.Fallback, &g.Low, &g.Key); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(spellings), &g.Spellings); err != nil {
				return fmt.Errorf("store: the spellings of review group %q: %w", g.Mention, err)
			}
			slices.Sort(g.Spellings) // in the order of their bytes, as neither engine keeps the order met
			g.Worst, g.Tenths = 4-int(first/100000000000), int(first/1000000000%100)
			out = append(out, g)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		if limit < 0 {
			return nil
		}
		return s.placeNames(ctx, out)
	})
	return out, err
}

// ReviewPlaceNames fills in the PlaceName of each group, from its first
// photo (Example): the queue's index does not hold it.
func (s *DB) ReviewPlaceNames(ctx context.Context, groups []photo.ReviewGroup) error {
	return s.reading(ctx, "", "naming the places of review groups", func(ctx context.Context) error {
		return s.placeNames(ctx, groups)
	})
}

// placeNames is ReviewPlaceNames inside a read.
func (s *DB) placeNames(ctx context.Context, groups []photo.ReviewGroup) error {
	if len(groups) == 0 {
		return nil
	}
	name, err := s.read.PrepareContext(ctx, `SELECT place_name FROM photos WHERE id = ?`)
	if err != nil {
		return err
	}
	defer name.Close()
	for i := range groups {
		if err := name.QueryRowContext(ctx, groups[i].Example).Scan(&groups[i].PlaceName); err != nil {
			return fmt.Errorf("store: the first photo of review group %q: %w", groups[i].Mention, err)
		}
	}
	return nil
}

// ReviewTouched returns the mention keys of the review groups whose
// photos changed after the change numbered since (0: ever, as far as the
// archive has kept count), and the number of the last change it read
// (since when none): what a copy of the groups counted after change since
// must count again to be as the archive is now. The numbers rise in the
// order the changes commit, so that a reader who asks again with the
// number returned misses none.
func (s *DB) ReviewTouched(ctx context.Context, since int64) (keys []string, last int64, err error) {
	last = since
	err = s.reading(ctx, "", "listing the review groups changed", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT mention_key, seq FROM review_touched WHERE seq > ? ORDER BY seq`, since)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var k string
			if err := rows.Scan(&k, &last); err != nil {
				return err
			}
			keys = append(keys, k)
		}
		return rows.Err()
	})
	return keys, last, err
}

// ReviewMark returns the number of the last change ReviewTouched counts:
// read before the groups are counted in full, it is the since of the
// next ReviewTouched.
func (s *DB) ReviewMark(ctx context.Context) (int64, error) {
	var n int64
	err := s.reading(ctx, "", "reading the review groups' last change", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT ifnull(max(seq), 0) FROM review_touched`).Scan(&n)
	})
	return n, err
}

// ReviewIDs returns the ids of the unchecked photos of a group (its
// mention, in any of its spellings), the ones that most need a person
// first.
func (s *DB) ReviewIDs(ctx context.Context, f photo.Filter, mention string) ([]string, error) {
	key := s.mentionKey(mention)
	f.Unreviewed, f.MentionKey = true, &key
	w, args, err := s.filter(ctx, f)
	if err != nil {
		return nil, err
	}
	return s.column(ctx, f.Query, "listing photos to review",
		`SELECT id FROM photos INDEXED BY photos_review WHERE `+w+` ORDER BY `+reviewOrder, args...)
}

// reviewOrder is the order a group's photos are reviewed in: the ones
// that most need a person first (need: 4 their image file disagrees with
// the caption, 3 unplaced, 2 fallbacks, 1 unsure), then the least
// confident (where a review teaches the refit most), then the newest
// (SQLite puts the undated last): the order of the photos_review index.
const reviewOrder = `need DESC, confidence, date_from DESC NULLS LAST, id`

// ReviewSplit returns how the unchecked photos of a group (its mention,
// in any of its spellings) are placed now, one part a place, the largest first, so that
// an editor sees before applying a decision to "all" that the same words
// were read as different places.
func (s *DB) ReviewSplit(ctx context.Context, f photo.Filter, mention string) ([]photo.GroupPart, error) {
	key := s.mentionKey(mention)
	f.Unreviewed, f.MentionKey = true, &key
	w, args, err := s.filter(ctx, f)
	if err != nil {
		return nil, err
	}
	var out []photo.GroupPart
	err = s.reading(ctx, f.Query, "splitting a review group by place", func(ctx context.Context) error {
		// The place's name from one photo shown there, not from every
		// one: the queue's index holds no names.
		rows, err := s.read.QueryContext(ctx, `SELECT place_id, (SELECT place_name FROM photos n WHERE n.place_id = g.place_id ORDER BY n.rowid LIMIT 1), located, n
			FROM (SELECT place_id, lon IS NOT NULL AS located, count(*) AS n FROM photos INDEXED BY photos_review WHERE `+w+`
				GROUP BY place_id, located) g ORDER BY n DESC, place_id COLLATE BINARY, located`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var g photo.GroupPart
			if err := rows.Scan(&g.PlaceID, &g.PlaceName, &g.Located, &g.Photos); err != nil {
				return err
			}
			out = append(out, g)
		}
		return rows.Err()
	})
	return out, err
}

// mentionKey folds a caption's place text with MentionKey, or by case.
func (s *DB) mentionKey(mention string) string {
	if s.MentionKey == nil {
		return strings.ToLower(mention)
	}
	return s.MentionKey(mention)
}

// FillMentionKeys folds the place texts of the photos written before the
// archive kept their folded form, with MentionKey, in one transaction.
// It returns how many photos it filled; on an archive kept up to date it
// finds none and writes nothing.
func (s *DB) FillMentionKeys(ctx context.Context) (int, error) {
	mentions, err := s.column(ctx, "", "finding unfolded place texts",
		`SELECT DISTINCT mention FROM photos WHERE mention_key = '' AND mention != ''`)
	if err != nil || len(mentions) == 0 || s.write == nil {
		return 0, err
	}
	tx, err := s.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	n := 0
	for _, m := range mentions {
		res, err := tx.ExecContext(ctx, `UPDATE photos SET mention_key = ? WHERE mention = ? AND mention_key = ''`, s.mentionKey(m), m)
		if err != nil {
			return 0, fmt.Errorf("store: folding place texts: %w", err)
		}
		k, _ := res.RowsAffected()
		n += int(k)
	}
	if err := tx.Commit(); err != nil {
		return 0, s.writeErr(err)
	}
	return n, nil
}
