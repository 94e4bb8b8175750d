// Package internal holds syriamap's packages, grouped by layer: http/…
// (the server, its pages and API, and the published site) on top; the
// domain (archive, geoparse/…, evidence/…, ingest, resize, i18n …) in
// the middle; store (all the SQL) below; and photo and story, the types
// every layer shares, at the bottom. TestLayers keeps the imports so.
package internal
