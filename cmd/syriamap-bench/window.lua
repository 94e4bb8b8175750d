-- wrk script for syriamap-bench: each request asks for one random month
-- (2012-2017) of photos in one of four city boxes (api.go's cityBoxes), as
-- the map does when a user scrubs the timeline. Gzip is requested as a
-- browser would.
local boxes = {
  "36.9,36.0,37.4,36.4", -- Aleppo
  "36.1,33.3,36.6,33.7", -- Damascus
  "36.5,34.6,36.9,34.9", -- Homs
  "36.3,35.6,36.9,36.1", -- Idlib
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
