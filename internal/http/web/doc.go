// Package web holds what syriamap's HTTP packages (httpapi, ogcapi) share
// and nothing that serves a route: the reading of the list filters and
// other query parameters, the errors only HTTP has, the GeoJSON Feature
// encoder of a photo (one for every route that writes one), the rule for
// how a placement is shown, and small helpers of content negotiation and
// formatting.
package web
