package store

import (
	"context"
	"fmt"
)

// TaskRecheckFiles asks for every image file's check to be computed again
// (see photo.Check), after the check's rules changed.
const TaskRecheckFiles = "recheck-files"

// TaskPending reports whether an upgrade left the task named name for the
// archive to do (see migrations/0011_archive_tasks.sql).
func (s *DB) TaskPending(ctx context.Context, name string) (bool, error) {
	n, err := s.column(ctx, "", "reading the archive's pending tasks", `SELECT name FROM archive_tasks WHERE name = ?`, name)
	return len(n) > 0, err
}

// TaskDone records that the task named name is done.
func (s *DB) TaskDone(ctx context.Context, name string) error {
	if _, err := s.write.ExecContext(ctx, `DELETE FROM archive_tasks WHERE name = ?`, name); err != nil {
		return fmt.Errorf("store: recording task %s done: %w", name, s.writeErr(err))
	}
	return nil
}
