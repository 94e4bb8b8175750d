package photo

import "unicode"

// CheckName refuses a name (a place's, an editor's) that holds a
// character no name has and that would change how text around it is
// shown: a control character (NUL, BEL, an ANSI escape, a line break) or
// a bidirectional override, embedding or isolate (U+202A–U+202E,
// U+2066–U+2069), which can make a name read backwards on a page or in a
// terminal. The marks Arabic text uses (U+200E, U+200F, U+061C) are
// kept. field names what is checked in the message.
func CheckName(field, s string) error {
	for i, r := range s {
		switch {
		case r == unicode.ReplacementChar:
			return ParamErrorf(field, "the %s holds bytes that are not UTF-8 text (at byte %d)", field, i)
		case unicode.IsControl(r):
			return ParamErrorf(field, "the %s holds a control character (%U at byte %d), which no name has", field, r, i)
		case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
			return ParamErrorf(field, "the %s holds a bidirectional override (%U at byte %d), which can make it read backwards: type the name without it", field, r, i)
		}
	}
	return nil
}
