// The events layer in the view's state: one parameter of the address,
// events=, read and written here for the explorer (state.js), a story's
// saved view (story.js) and "Cite this view", live and published alike.
//
//   events=1             the layer on, every event
//   events=documented    on, the events photos document
//   events=undocumented  on, the events no photo documents
//
// Absent (or anything else) is the layer off: a link written before the
// layer had a parameter opens as it always did.

// EVENT_LAYERS are the parameter's values, in the order the layer's
// menu lists them.
export const EVENT_LAYERS = ["1", "documented", "undocumented"];

// readEvents is the layer a query string (or URLSearchParams) asks for:
// one of EVENT_LAYERS, or "" for off. "true" and "on" are "1".
export function readEvents(search) {
  const p = search instanceof URLSearchParams ? search : new URLSearchParams(search || "");
  const v = (p.get("events") || "").trim().toLowerCase();
  if (v === "true" || v === "on") return "1";
  return EVENT_LAYERS.includes(v) ? v : "";
}

// writeEvents sets the layer's parameter in p (URLSearchParams), or
// deletes it for the layer off; it returns p.
export function writeEvents(p, layer) {
  if (EVENT_LAYERS.includes(layer)) p.set("events", layer);
  else p.delete("events");
  return p;
}

// documentedOf is the layer's choice as the layer's menu holds it ("" all,
// "1" documented, "0" undocumented); layerOf is the reverse, for a layer
// that is on.
export function documentedOf(layer) {
  return { documented: "1", undocumented: "0" }[layer] || "";
}

export function layerOf(documented) {
  return { "1": "documented", "0": "undocumented" }[documented] || "1";
}
