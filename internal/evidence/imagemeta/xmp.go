package imagemeta

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// The XMP namespaces read.
const (
	nsRDF       = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	nsDC        = "http://purl.org/dc/elements/1.1/"
	nsPhotoshop = "http://ns.adobe.com/photoshop/1.0/"
	nsCore      = "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
	nsExt       = "http://iptc.org/std/Iptc4xmpExt/2008-02-29/"
)

// node is an element of an XMP packet: RDF writes one property either as
// an attribute or as an element, so both are kept the same way.
type node struct {
	name     xml.Name
	attrs    []xml.Attr
	children []*node
	text     strings.Builder
}

// maxXMPDepth bounds nesting: a real packet nests about eight deep, and
// exiftool reads packets nested hundreds deep. The decoder keeps a stack,
// not recursion, and a packet is at most 64 KB, so the bound is only a
// sanity check.
const maxXMPDepth = 4096

var errXMP = errors.New("damaged XMP packet")

// parseXMP reads a packet into a tree of nodes.
func parseXMP(b []byte) (*node, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = false
	root := &node{}
	stack := []*node{root}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			// A packet cut short still gives what it held before the cut.
			if len(root.children) == 0 {
				return nil, errXMP
			}
			break
		}
		top := stack[len(stack)-1]
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) > maxXMPDepth {
				return nil, errXMP
			}
			n := &node{name: t.Name, attrs: t.Attr}
			top.children = append(top.children, n)
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			top.text.Write(t)
		}
	}
	return root, nil
}

// readXMP reads the properties syriamap uses from an XMP packet into m.
func readXMP(b []byte, m *Metadata) error {
	root, err := parseXMP(b)
	if err != nil {
		return err
	}
	// Properties live on the top rdf:Description elements (a packet may
	// split them over several); a Description inside a property is a
	// structure's, which walk does not enter.
	var descs []*node
	var walk func(n *node)
	walk = func(n *node) {
		if n.name.Space == nsRDF && n.name.Local == "Description" {
			descs = append(descs, n)
			return
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	walk(root)
	for _, d := range descs {
		simple := func(space, local string, dst *string) {
			if *dst == "" {
				*dst = property(d, space, local)
			}
		}
		simple(nsDC, "description", &m.Caption)
		simple(nsDC, "title", &m.ObjectName)
		simple(nsPhotoshop, "Credit", &m.Credit)
		simple(nsPhotoshop, "Source", &m.Source)
		simple(nsPhotoshop, "City", &m.City)
		simple(nsPhotoshop, "State", &m.State)
		simple(nsPhotoshop, "Country", &m.Country)
		simple(nsPhotoshop, "DateCreated", &m.Created)
		simple(nsCore, "Location", &m.Sublocation)
		simple(nsCore, "CountryCode", &m.CountryCode)
		if len(m.Creators) == 0 {
			m.Creators = list(d, nsDC, "creator")
		}
		if len(m.Keywords) == 0 {
			m.Keywords = list(d, nsDC, "subject")
		}
		if len(m.Shown) == 0 {
			m.Shown = locations(d, "LocationShown")
		}
		if len(m.Taken) == 0 {
			m.Taken = locations(d, "LocationCreated")
		}
	}
	m.CountryCode = strings.ToUpper(m.CountryCode)
	return nil
}

// property returns a simple or language-alternative property of a
// description, given as an attribute or as an element: the x-default
// item of an rdf:Alt, or its first.
func property(d *node, space, local string) string {
	for _, a := range d.attrs {
		if a.Name.Space == space && a.Name.Local == local {
			return clean(a.Value)
		}
	}
	for _, c := range d.children {
		if c.name.Space != space || c.name.Local != local {
			continue
		}
		if items := items(c); len(items) > 0 {
			for _, it := range items {
				for _, a := range it.attrs {
					if a.Name.Local == "lang" && a.Value == "x-default" {
						return clean(it.text.String())
					}
				}
			}
			return clean(items[0].text.String())
		}
		return clean(c.text.String())
	}
	return ""
}

// list returns the items of an rdf:Seq or rdf:Bag property (or its one
// value, when a writer gave a plain string).
func list(d *node, space, local string) []string {
	for _, c := range d.children {
		if c.name.Space != space || c.name.Local != local {
			continue
		}
		var out []string
		for _, it := range items(c) {
			if v := clean(it.text.String()); v != "" {
				out = append(out, v)
			}
		}
		if len(out) == 0 {
			if v := clean(c.text.String()); v != "" {
				out = append(out, v)
			}
		}
		return out
	}
	if v := property(d, space, local); v != "" {
		return []string{v}
	}
	return nil
}

// items returns the rdf:li of the array a property element holds.
func items(prop *node) []*node {
	var out []*node
	for _, arr := range prop.children {
		if arr.name.Space != nsRDF {
			continue
		}
		for _, li := range arr.children {
			if li.name.Space == nsRDF && li.name.Local == "li" {
				out = append(out, li)
			}
		}
	}
	return out
}

// locations reads an Iptc4xmpExt location array: each rdf:li is a
// structure whose fields are attributes or child elements of the li or of
// an rdf:Description inside it.
func locations(d *node, local string) []Location {
	for _, c := range d.children {
		if c.name.Space != nsExt || c.name.Local != local {
			continue
		}
		var out []Location
		for _, li := range items(c) {
			s := li
			for _, ch := range li.children {
				if ch.name.Space == nsRDF && ch.name.Local == "Description" {
					s = ch
				}
			}
			l := Location{
				Sublocation: property(s, nsExt, "Sublocation"),
				City:        property(s, nsExt, "City"),
				State:       property(s, nsExt, "ProvinceState"),
				Country:     property(s, nsExt, "CountryName"),
				CountryCode: strings.ToUpper(property(s, nsExt, "CountryCode")),
			}
			if l != (Location{}) {
				out = append(out, l)
			}
		}
		return out
	}
	return nil
}
