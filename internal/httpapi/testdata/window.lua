-- wrk script for `make bench-load`: each request asks for one random month
-- (2012-2017) of photos in one of four city boxes, as the map does when a
-- user scrubs the timeline. Gzip is requested as a browser would.
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

-- A load test with failures is not a figure: say so and fail make.
done = function(summary, latency, requests)
  local e = summary.errors
  local n = e.connect + e.read + e.write + e.status + e.timeout
  io.write(string.format("errors: %d (connect %d, read %d, write %d, non-2xx %d, timeout %d)\n",
    n, e.connect, e.read, e.write, e.status, e.timeout))
  if n > 0 then os.exit(1) end
end
