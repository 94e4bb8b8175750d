// Package internal holds syriamap's packages, grouped by layer: http/…
// (the server, its pages and API, and the exports: the published site
// and the evidence bag) on top; the archive (the use cases) below it;
// the readers it uses (geoparse/…, evidence/…, ingest, resize, i18n …);
// store (all the SQL) below them; and photo and story, the types every
// layer shares, at the bottom. The layers above the archive reach the
// store only through it. TestLayers keeps the imports so.
package internal
