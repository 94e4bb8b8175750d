// The conflict events of a photo's page (and its review page), for an
// editor. A decision — it documents this, not this one, undo, link an
// event by its id — is sent asking for JSON: an event refused (an id
// malformed, not held, dropped by its dataset) is said beside the field
// without leaving the page, what was typed kept and the field focused;
// a decision made goes back to the page, whose status says what it did,
// said again once the page is there so that a screen reader announces it
// (a live region speaks when its text changes, not when it is loaded).
// Anything else (the photo changed meanwhile, the network) is sent as
// the form would be without the script, and answered the same way.

export function eventLinks(section) {
  const status = section.querySelector("[data-testid=event-status]");
  if (status && status.textContent.trim() !== "") {
    const said = status.textContent;
    status.textContent = "";
    requestAnimationFrame(() => { status.textContent = said; });
  }
  section.addEventListener("submit", async (ev) => {
    const form = ev.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") return;
    ev.preventDefault();
    const buttons = [...form.querySelectorAll("button")];
    for (const b of buttons) b.disabled = true;
    let res, body;
    try {
      res = await fetch(form.action, {
        method: "POST", credentials: "same-origin", headers: { Accept: "application/json" },
        body: new URLSearchParams(new FormData(form)),
      });
      body = await res.json();
    } catch {
      form.submit();
      return;
    }
    if (res.ok && body.next) {
      const next = new URL(body.next, location.href);
      if (next.href === location.href) location.reload();
      else location.assign(next.href);
    } else if (body.parameter === "event" && form.querySelector("[data-testid=event-id]")) {
      for (const b of buttons) b.disabled = false;
      refuse(form, body.error);
    } else {
      form.submit();
    }
  });
}

// refuse says why the event typed in form's field was refused, beside
// the field, and gives the field the focus with what was typed.
function refuse(form, why) {
  const field = form.querySelector("[data-testid=event-id]");
  let note = form.querySelector("[data-testid=event-id-error]");
  if (!note) {
    note = document.createElement("p");
    note.className = "field-error";
    note.id = "event-id-error";
    note.setAttribute("role", "alert");
    note.dataset.testid = "event-id-error";
    form.append(note);
  }
  note.textContent = why;
  field.setAttribute("aria-invalid", "true");
  field.setAttribute("aria-describedby", note.id);
  field.focus();
  field.select();
}
