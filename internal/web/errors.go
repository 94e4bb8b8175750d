package web

import "github.com/syriamap/syriamap/internal/photo"

// BadParam reports a bad query parameter.
func BadParam(name, format string, args ...any) error {
	return photo.ParamErrorf(name, format, args...)
}

func NotFound(format string, args ...any) error {
	return photo.Errorf(photo.ENotFound, format, args...)
}
