-- wrk script for syriamap-bench --peer: the same windows asked of
-- syriamap and of pg_featureserv. Each request is one random month
-- (2012-2017) and, for the "city" query, one of the city boxes shifted at
-- random by up to {{.ShiftM}} m, so that no two requests select the same
-- photos and no response cache can stand in for speed. Both servers get
-- the same sequence (the same seed per thread).
-- "repeat" asks one window (June 2016, the first box) every time, as
-- readers of a newsroom's map do.
-- usage: wrk ... -s peer.lua URL -- <syriamap|peer|limit> <repeat|city|country>
local boxes = {
{{- range .Boxes}}
  { {{.}} },
{{- end}}
}
local shift = {{.ShiftDeg}}

local function lastday(y, m)
  local d = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
  if m == 2 and (y % 4 == 0 and (y % 100 ~= 0 or y % 400 == 0)) then return 29 end
  return d[m]
end

local function esc(s)
  return (s:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("tid", counter)
end

function init(args)
  target, query = args[1], args[2]
  math.randomseed(7 + (tid or 0))
  wrk.headers["Accept-Encoding"] = "gzip"
end

function request()
  local y, m = math.random(2012, 2017), math.random(1, 12)
  local bbox = nil
  if query == "repeat" then
    -- one window, asked again and again: the default view, a story's step
    y, m = 2016, 6
    local b = boxes[1]
    bbox = string.format("%.5f,%.5f,%.5f,%.5f", b[1], b[2], b[3], b[4])
  elseif query == "city" then
    local b = boxes[math.random(#boxes)]
    local dx, dy = (math.random() * 2 - 1) * shift, (math.random() * 2 - 1) * shift
    bbox = string.format("%.5f,%.5f,%.5f,%.5f", b[1] + dx, b[2] + dy, b[3] + dx, b[4] + dy)
  end
  local path
  if target ~= "peer" then -- the limit server answers any path alike
    local mm = string.format("%d-%02d", y, m)
    path = "/api/photos.geojson?from=" .. mm .. "&to=" .. mm
  else
    local f = string.format("date BETWEEN '%d-%02d-01' AND '%d-%02d-%02d'", y, m, y, m, lastday(y, m))
    path = "/collections/public.photos/items.json?filter=" .. esc(f) .. "&limit=200000"
  end
  if bbox then path = path .. "&bbox=" .. bbox end
  return wrk.format("GET", path)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("peer-bench: requests %d, errors %d, p50_us %d, p99_us %d, bytes %d\n", summary.requests,
    e.connect + e.read + e.write + e.status + e.timeout, latency:percentile(50), latency:percentile(99), summary.bytes))
end
