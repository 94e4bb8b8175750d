// read-pmtiles.mjs FILE Z: reads a PMTiles archive with protomaps' own
// reader (the pmtiles package the published page uses) and prints, as
// JSON, its header and, for every tile of zoom Z that holds photos, the
// sum of the "count" property of its features and their number. The
// publish tests run it to check syriamap's writer against that reader.
import { readFileSync } from "node:fs";
import { PMTiles } from "pmtiles";
import { VectorTile } from "@mapbox/vector-tile";
import Pbf from "pbf";

const [file, zArg] = process.argv.slice(2);
const buf = readFileSync(file);
const source = {
  getKey: () => file,
  getBytes: async (offset, length) => ({ data: buf.buffer.slice(buf.byteOffset + offset, buf.byteOffset + offset + length) }),
};
const pm = new PMTiles(source);
const header = await pm.getHeader();
const z = Number(zArg);
const n = 1 << z;
let count = 0, features = 0, tiles = 0;
// Only the tiles over Syria's neighbourhood (lon 30–50, lat 28–42).
const lonTile = (lon) => Math.floor(((lon + 180) / 360) * n);
const latTile = (lat) => Math.floor(((1 - Math.log(Math.tan((lat * Math.PI) / 180) + 1 / Math.cos((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
for (let x = lonTile(30); x <= lonTile(50); x++) {
  for (let y = latTile(42); y <= latTile(28); y++) {
    const t = await pm.getZxy(z, x, y);
    if (!t) continue;
    tiles++;
    const layer = new VectorTile(new Pbf(new Uint8Array(t.data))).layers.photos;
    for (let i = 0; i < layer.length; i++) {
      count += layer.feature(i).properties.count;
      features++;
    }
  }
}
const metadata = await pm.getMetadata();
console.log(JSON.stringify({ minZoom: header.minZoom, maxZoom: header.maxZoom, tileType: header.tileType, tiles, count, features, layers: metadata.vector_layers.map((l) => l.id) }));
