// plain is text from the archive (a place's name, a caption, a credit)
// as an element for Leaflet's tooltips and popups, which parse a string
// as HTML: the text is never markup, whatever an editor typed.
export function plain(text) {
  const e = document.createElement("span");
  e.textContent = text ?? "";
  e.dir = "auto";
  return e;
}
