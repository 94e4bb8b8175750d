package imagemeta

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"unicode/utf8"
)

// The IIM datasets read (IPTC-NAA Information Interchange Model 4.2).
const (
	iimCharset     = 1<<8 | 90 // 1:90 coded character set
	iimObjectName  = 2<<8 | 5
	iimKeywords    = 2<<8 | 25
	iimDate        = 2<<8 | 55 // CCYYMMDD
	iimTime        = 2<<8 | 60 // HHMMSS±HHMM
	iimByline      = 2<<8 | 80
	iimCity        = 2<<8 | 90
	iimSublocation = 2<<8 | 92
	iimState       = 2<<8 | 95
	iimCountryCode = 2<<8 | 100
	iimCountry     = 2<<8 | 101
	iimCredit      = 2<<8 | 110
	iimSource      = 2<<8 | 115
	iimCaption     = 2<<8 | 120
)

// utf8Escape is the 1:90 value that declares UTF-8 (ISO 2022 "ESC % G").
var utf8Escape = []byte("\x1b%G")

var errIIM = errors.New("damaged IIM block")

// readIIM reads an IIM block into m. Text is UTF-8 when 1:90 says so;
// otherwise it is Latin-1, as the IIM's default is, unless it is valid
// UTF-8 with some non-ASCII letter in it (many programs write UTF-8 and
// never declare it, and Latin-1 text is hardly ever valid UTF-8).
func readIIM(b []byte, m *Metadata) error {
	sets, declaredUTF8, err := iimDatasets(b)
	if err != nil {
		return err
	}
	text := func(v []byte) string {
		var s string
		if declaredUTF8 || (utf8.Valid(v) && !ascii(v)) {
			s = strings.ToValidUTF8(string(v), "\uFFFD")
		} else {
			s = latin1(v)
		}
		return clean(s)
	}
	var date, clock string
	for _, d := range sets {
		v := text(d.data)
		switch d.tag {
		case iimDate:
			date = v
		case iimTime:
			clock = v
		default:
			m.setIIM(d.tag, v)
		}
	}
	m.Created = iimDateTime(date, clock)
	return nil
}

// iimDataset is one IIM dataset: its record:number tag and its data.
type iimDataset struct {
	tag  int
	data []byte
}

// iimDatasets splits an IIM block into its datasets, and says whether
// 1:90 declares UTF-8.
func iimDatasets(b []byte) (sets []iimDataset, declaredUTF8 bool, err error) {
	for len(b) > 0 {
		if b[0] != 0x1C {
			// Padding after the last dataset is common; anything else
			// ends what can be read.
			if len(sets) == 0 {
				return nil, false, errIIM
			}
			break
		}
		if len(b) < 5 {
			return nil, false, errIIM
		}
		tag := int(b[1])<<8 | int(b[2])
		n := int(binary.BigEndian.Uint16(b[3:5]))
		b = b[5:]
		if n&0x8000 != 0 { // extended dataset: the length's length follows
			k := n & 0x7FFF
			if k > 4 || len(b) < k {
				return nil, false, errIIM
			}
			n = 0
			for _, c := range b[:k] {
				n = n<<8 | int(c)
			}
			b = b[k:]
		}
		if n < 0 || n > len(b) {
			return nil, false, errIIM
		}
		if tag == iimCharset && bytes.Equal(b[:n], utf8Escape) {
			declaredUTF8 = true
		}
		sets = append(sets, iimDataset{tag, b[:n]})
		b = b[n:]
	}
	return sets, declaredUTF8, nil
}

// setIIM sets the field the descriptive dataset tag holds to v.
func (m *Metadata) setIIM(tag int, v string) {
	switch tag {
	case iimCaption:
		m.Caption = v
	case iimObjectName:
		m.ObjectName = v
	case iimByline:
		if v != "" {
			m.Creators = append(m.Creators, v)
		}
	case iimKeywords:
		if v != "" {
			m.Keywords = append(m.Keywords, v)
		}
	case iimCredit:
		m.Credit = v
	case iimSource:
		m.Source = v
	case iimCity:
		m.City = v
	case iimSublocation:
		m.Sublocation = v
	case iimState:
		m.State = v
	case iimCountryCode:
		m.CountryCode = strings.ToUpper(v)
	case iimCountry:
		m.Country = v
	}
}

// iimDateTime turns IIM's CCYYMMDD and HHMMSS±HHMM into ISO 8601; ""
// when the date is not eight digits (a partial date "20170000" keeps the
// known part).
func iimDateTime(date, clock string) string {
	if len(date) != 8 || !digits(date) {
		return ""
	}
	y, mo, d := date[:4], date[4:6], date[6:]
	switch {
	case mo == "00":
		return y
	case d == "00":
		return y + "-" + mo
	}
	s := y + "-" + mo + "-" + d
	if len(clock) >= 6 && digits(clock[:6]) {
		s += "T" + clock[:2] + ":" + clock[2:4] + ":" + clock[4:6]
		if len(clock) == 11 && (clock[6] == '+' || clock[6] == '-') && digits(clock[7:]) {
			s += clock[6:9] + ":" + clock[9:]
		}
	}
	return s
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func ascii(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// latin1 decodes ISO 8859-1: each byte is the code point of its value.
func latin1(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for _, c := range b {
		sb.WriteRune(rune(c))
	}
	return sb.String()
}

// clean trims a value and drops the NULs and control characters some
// writers leave in fixed-size fields, keeping line breaks as spaces.
func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case r < 0x20 || r == 0x7F:
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
