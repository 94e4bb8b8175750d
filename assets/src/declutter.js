// Where an event cluster's count is drawn: beside its circle, never over
// a photo mark's count (issue 68: "4336" at Daraa was 43 events printed
// over 336 photos). The count is a small badge of the events' colour that
// touches the circle's edge, in the first of eight directions where it
// meets no photo mark and no other count; pushed out a few pixels at a
// time past a photo mark that covers the circle; left out when no place
// is free (the cluster's tooltip still says it). A rule of boxes in the
// map's pixels, with no map in it: assets/test tests it under node.

// DIRECTIONS are tried in order: the upper right first (a badge's usual
// place), then right, above, below, and the left side.
const DIRECTIONS = [[0.7071, -0.7071], [1, 0], [0, -1], [0.7071, 0.7071], [0, 1], [-0.7071, -0.7071], [-1, 0], [-0.7071, 0.7071]];

// meets reports whether boxes a and b ({left, top, right, bottom}) share
// any area.
export function meets(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

// countBox is the box of a w×h count whose nearest side or corner is d
// pixels out from a circle of radius r at (x, y), in direction [dx, dy].
function countBox(x, y, r, w, h, [dx, dy], d) {
  const cx = x + dx * (r + d) + dx * (w / 2), cy = y + dy * (r + d) + dy * (h / 2);
  return { left: cx - w / 2, top: cy - h / 2, right: cx + w / 2, bottom: cy + h / 2 };
}

// placeCount is where the count of a circle at (x, y), of radius r, goes:
// a w×h box ({left, top, right, bottom}, pixels) meeting none of taken,
// touching the circle or up to reach pixels out from it (by step); null
// when every place meets something.
export function placeCount({ x, y, r, w, h }, taken, { reach = 24, step = 4 } = {}) {
  for (let d = 1; d <= reach + 1; d += step) {
    for (const dir of DIRECTIONS) {
      const box = countBox(x, y, r, w, h, dir, d);
      if (!taken.some((t) => meets(box, t))) return box;
    }
  }
  return null;
}

// placeCounts places each circle's count in turn, largest circle first
// (the most events keep the nearest place): each count placed is taken
// for those after it. It returns a box or null per circle, in the
// circles' order.
export function placeCounts(circles, obstacles, opts) {
  const taken = [...obstacles];
  const out = new Array(circles.length).fill(null);
  const order = circles.map((_, i) => i).sort((a, b) => circles[b].r - circles[a].r || a - b);
  for (const i of order) {
    const box = placeCount(circles[i], taken, opts);
    out[i] = box;
    if (box) taken.push(box);
  }
  return out;
}
