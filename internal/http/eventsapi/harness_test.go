package eventsapi_test

import (
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/servertest"
)

// newServer is the HTTP tests' sample archive served whole (servertest):
// the events' promises hold across routes (a link travels to the
// photos' downloads and pages).
func newServer(t *testing.T) *servertest.Server { return servertest.Sample(t, httpapi.Options{}) }
