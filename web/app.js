// faultline's page behaviour. Everything here is an enhancement: the forms, the result page and
// the encyclopedia work without it. Served from 'self' only (the CSP forbids inline script).
"use strict";

function copyText(text, button) {
  const done = () => {
    const was = button.textContent;
    button.textContent = "Copied";
    button.classList.add("done");
    setTimeout(() => { button.textContent = was; button.classList.remove("done"); }, 1500);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text) && done());
  } else if (fallbackCopy(text)) {
    done();
  }
}

// Clipboard API needs a secure context; on plain http to a team host, select and copy instead.
function fallbackCopy(text) {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.className = "offscreen";
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
  area.remove();
  return ok;
}

function setupCopyButtons() {
  for (const button of document.querySelectorAll("button[data-copy]")) {
    const target = document.getElementById(button.dataset.copy);
    if (!target) continue;
    button.hidden = false;
    button.addEventListener("click", () => copyText(target.textContent, button));
  }
}

// Drag and drop onto the paste form: the dropped files go into the form's file input, and the
// form is posted as it would be without script.
function setupDrop() {
  const form = document.querySelector("form.paste:not(.mini)");
  const input = document.getElementById("files");
  if (!form || !input || typeof DataTransfer === "undefined") return;
  for (const el of document.querySelectorAll(".js-only")) el.hidden = false;
  const zone = form;
  let depth = 0;
  zone.addEventListener("dragenter", (e) => { e.preventDefault(); depth++; zone.classList.add("dragging"); });
  zone.addEventListener("dragover", (e) => e.preventDefault());
  zone.addEventListener("dragleave", () => { if (--depth <= 0) { depth = 0; zone.classList.remove("dragging"); } });
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    depth = 0;
    zone.classList.remove("dragging");
    if (!e.dataTransfer || e.dataTransfer.files.length === 0) return;
    const dt = new DataTransfer();
    for (const f of e.dataTransfer.files) dt.items.add(f);
    input.files = dt.files;
    showChosen(input);
  });
  input.addEventListener("change", () => showChosen(input));
}

function showChosen(input) {
  const hint = input.parentElement.querySelector(".chosen") || document.createElement("span");
  hint.className = "chosen";
  const names = Array.from(input.files).map((f) => f.name);
  hint.textContent = names.length ? names.length + " file" + (names.length > 1 ? "s" : "") + ": " + names.join(", ") : "";
  input.parentElement.appendChild(hint);
}

// Submitting shows that work is under way (a large upload takes a while).
function setupBusy() {
  for (const form of document.querySelectorAll("form.paste")) {
    form.addEventListener("submit", () => {
      const b = form.querySelector("button[type=submit]");
      if (b) { b.disabled = true; b.textContent = "Diagnosing…"; }
    });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  setupCopyButtons();
  setupDrop();
  setupBusy();
});
