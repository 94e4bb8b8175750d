-- wrk script for syriamap-bench: each request asks for one random month
-- (2012-2017) of photos in one of the city boxes, as the map does when a
-- user scrubs the timeline. Gzip is requested as a browser would. The boxes
-- are filled in from api.go's cityBoxes, so both loads ask the same.
local boxes = {
{{- range .}}
  "{{.}}",
{{- end}}
}

math.randomseed(7)
wrk.headers["Accept-Encoding"] = "gzip"

request = function()
  local m = string.format("%d-%02d", math.random(2012, 2017), math.random(1, 12))
  local box = boxes[math.random(#boxes)]
  return wrk.format("GET", "/api/photos.geojson?from=" .. m .. "&to=" .. m .. "&bbox=" .. box)
end

-- One line the bench reads: every kind of failure, a non-2xx answer too.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("syriamap: requests %d, errors %d, p99_us %d\n", summary.requests,
    e.connect + e.read + e.write + e.status + e.timeout, latency:percentile(99)))
end
