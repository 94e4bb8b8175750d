package main

import (
	"net/url"
	"path"
	"regexp"
	"strings"
)

// Curated points were read from copies of Wikipedia on mirror hosts
// (kiwix snapshots, IPFS, translation sites) when Wikipedia itself could
// not be reached. The attribution links to the canonical article instead:
// the mirror is where the page was read, the article is what it is.

var (
	// an English Wikipedia URL inside another (a proxy's, a translator's).
	embeddedWiki = regexp.MustCompile(`([a-z-]{2,12})(?:\.m)?\.wikipedia\.org(?:/wiki/|/w/index\.php\?[^ ]*title=)([^?&# ]+)`)
	// kiwix snapshots: …/wikipedia_es_all_maxi_2024-02/A/Qadam, …/wikipedia_en/X.html
	kiwix = regexp.MustCompile(`wikipedia_([a-z]{2,3})(?:_[a-z0-9_-]+)?/(?:A/)?([^/?#]+)$`)
	// mirrors that put the language in the path: /wiki/ar/X, /fr/X, /i-en/X
	langPath = regexp.MustCompile(`^/(?:wiki/|i-)?([a-z]{2,3})/([^/]+)$`)
)

// languages are the Wikipedia editions curated points were read from; a
// mirror's first host label is its edition when it is one of them.
var languages = map[string]string{"en": "en", "ar": "ar", "de": "de", "fr": "fr", "it": "it", "sv": "sv", "pt": "pt",
	"da": "da", "pl": "pl", "es": "es", "ro": "ro", "sco": "sco", "simple": "simple", "ru": "ru", "he": "he", "iw": "he", "uk": "uk"}

// canonicalPage returns the canonical address of a page a curated point
// was read from: the Wikipedia (or Wikidata) article a mirror copies, or
// the address itself when it is no copy of one.
func canonicalPage(raw string) string {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	decoded, _ := url.QueryUnescape(raw)
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	switch {
	case strings.HasSuffix(host, "wikipedia.org") && !strings.Contains(host, "ipfs"):
		lang := strings.Split(host, ".")[0]
		if title, ok := strings.CutPrefix(u.Path, "/wiki/"); ok && title != "" {
			return wiki(lang, title)
		}
		if t := u.Query().Get("title"); t != "" {
			return wiki(lang, t)
		}
		return raw
	case embeddedWiki.MatchString(decoded) && !strings.HasSuffix(host, "wikipedia.org"):
		m := embeddedWiki.FindStringSubmatch(decoded)
		return wiki(m[1], m[2])
	case strings.Contains(host, "wikipedia-on-ipfs"):
		return wiki(strings.Split(host, ".")[0], strings.TrimPrefix(u.Path, "/wiki/"))
	case strings.Contains(host, "herokuapp.com") && regexp.MustCompile(`^Q\d+$`).MatchString(u.Query().Get("q")):
		return "https://www.wikidata.org/wiki/" + u.Query().Get("q")
	case u.Query().Get("q") != "" && strings.HasSuffix(u.Path, ".php") && !strings.Contains(host, "herokuapp"):
		lang := u.Query().Get("lang")
		if lang == "" {
			lang = "en"
		}
		return wiki(lang, u.Query().Get("q"))
	case u.Query().Get("eterm") != "":
		return wiki("en", u.Query().Get("eterm"))
	case kiwix.MatchString(u.Path):
		m := kiwix.FindStringSubmatch(u.Path)
		return wiki(m[1], strings.TrimSuffix(m[2], ".html"))
	case strings.HasPrefix(host, "ipfs.io") || strings.Contains(host, "ipfs.com"):
		// The IPFS snapshot of English Wikipedia (2017).
		return wiki("en", strings.TrimSuffix(path.Base(u.Path), ".html"))
	case langPath.MatchString(u.Path) && mirrorWithLangPath(host):
		m := langPath.FindStringSubmatch(u.Path)
		return wiki(m[1], m[2])
	}
	if !wikiMirror(host) {
		return raw
	}
	lang := "en"
	if first := strings.Split(host, ".")[0]; languages[first] != "" {
		lang = languages[first]
	}
	if strings.Contains(host, "frwiki") {
		lang = "fr" // a translation of the French article
	}
	if strings.Contains(host, "ewikiuk") {
		lang = "uk"
	}
	title := path.Base(u.Path)
	title = strings.TrimPrefix(strings.TrimSuffix(title, ".html"), "Organization:")
	if strings.HasPrefix(host, "perceptio") {
		lang = "ru" // these copy the Russian article
	}
	return wiki(lang, title)
}

// mirrorWithLangPath reports whether a host puts the edition in the path.
func mirrorWithLangPath(host string) bool {
	for _, h := range []string{"defzone.net", "wikizero", "wikiland.org", "sagapedia.com", "qa.edu.vn", "howlingpixel.com", "wikisort.org", "wikimili.com"} {
		if strings.Contains(host, h) {
			return true
		}
	}
	return false
}

// wikiMirror reports whether a host serves copies of Wikipedia articles
// under their titles.
func wikiMirror(host string) bool {
	for _, h := range []string{"enwikipedia.net", "wiki.gravy.cc", "wiki.riteme.site", "wiki.x.io", "azureedge.net", "hmong.in.th",
		"wikiclassic.com", "kidzsearch.com", "handwiki.org", "piglix.com", "nzt.eth.link", "qaz.wiki", "xcv.wiki", "frwiki.wiki",
		"wikibrief.org", "wikiup.org", "abcdef.wiki", "edgio.link", "mgwiki.top", "ewikiuk.top", "perceptiopt.com", "perceptiode.com",
		"aroundus.com"} {
		if strings.Contains(host, h) {
			return !strings.Contains(host, "aroundus.com") // a municipality page, not an article copy
		}
	}
	return false
}

// wiki is a Wikipedia article's canonical address.
func wiki(lang, title string) string {
	if l, ok := languages[lang]; ok {
		lang = l
	}
	if t, err := url.PathUnescape(title); err == nil {
		title = t
	}
	title = strings.ReplaceAll(title, " ", "_")
	return "https://" + lang + ".wikipedia.org/wiki/" + url.PathEscape(title)
}
