// The events layer in the view's state (eventstate.js), and where an
// event cluster's count is drawn (declutter.js): issue 68, 2 and 8.
// `make test` runs it (node --test).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readEvents, writeEvents, documentedOf, layerOf, EVENT_LAYERS } from "../src/eventstate.js";
import { placeCount, placeCounts, meets } from "../src/declutter.js";

test("events=: read from the address, written back the same", () => {
  for (const [search, want] of [
    ["", ""], ["?from=2016-01", ""], ["?events=1", "1"], ["?events=documented&map=8/36.2/37.15", "documented"],
    ["?events=undocumented", "undocumented"], ["?events=true", "1"], ["?events=on", "1"], ["?events=0", ""],
    ["?events=", ""], ["?events=everything", ""], ["events=DOCUMENTED", "documented"],
  ]) {
    assert.equal(readEvents(search), want, search);
    const back = writeEvents(new URLSearchParams(), want).toString();
    assert.equal(back, want ? `events=${want}` : "", `${search} written back`);
    assert.equal(readEvents(back), want, `${search} read again`);
  }
});

test("events=: off deletes the parameter, the others are kept", () => {
  const p = new URLSearchParams("from=2016-01&events=1&q=mortar");
  assert.equal(writeEvents(p, "").toString(), "from=2016-01&q=mortar");
  assert.equal(writeEvents(p, "documented").toString(), "from=2016-01&q=mortar&events=documented");
});

test("events=: the layer's menu and the parameter, both ways", () => {
  for (const layer of EVENT_LAYERS) assert.equal(layerOf(documentedOf(layer)), layer);
  assert.deepEqual(["", "1", "0"].map(layerOf), ["1", "documented", "undocumented"]);
});

const box = (left, top, right, bottom) => ({ left, top, right, bottom });

test("a count beside its circle when nothing is there: the upper right, touching it", () => {
  const b = placeCount({ x: 100, y: 100, r: 10, w: 22, h: 16 }, []);
  assert.ok(b.left > 100 && b.bottom < 100, JSON.stringify(b));
  assert.ok(b.left - 100 <= 10 && 100 - b.bottom <= 10, "touches the circle");
});

test("a count never meets a photo mark; pushed past one that covers its circle", () => {
  // 43 events at Daraa under a 44 px cluster of 336 photos at the same point.
  const photo = box(78, 78, 122, 122);
  const b = placeCount({ x: 100, y: 100, r: 14.6, w: 22, h: 16 }, [photo]);
  assert.ok(b, "placed");
  assert.ok(!meets(b, photo), JSON.stringify(b));
});

test("a count with no free place is left out", () => {
  const wall = box(-1000, -1000, 1000, 1000);
  assert.equal(placeCount({ x: 100, y: 100, r: 10, w: 22, h: 16 }, [wall]), null);
});

test("counts keep off each other, the largest circle first", () => {
  const circles = [{ x: 100, y: 100, r: 9, w: 22, h: 16 }, { x: 104, y: 98, r: 20, w: 29, h: 16 }, { x: 300, y: 300, r: 12, w: 15, h: 16 }];
  const photos = [box(90, 90, 130, 130), box(310, 270, 340, 300)];
  const boxes = placeCounts(circles, photos);
  assert.equal(boxes.length, 3);
  const shown = boxes.filter(Boolean);
  assert.ok(shown.length >= 2);
  for (const b of shown) for (const p of photos) assert.ok(!meets(b, p), `${JSON.stringify(b)} meets ${JSON.stringify(p)}`);
  for (let i = 0; i < shown.length; i++) for (let j = i + 1; j < shown.length; j++) assert.ok(!meets(shown[i], shown[j]));
});
