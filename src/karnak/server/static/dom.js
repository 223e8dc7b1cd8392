// Small DOM helpers shared by the lobby and the game page, and the pages' tooltips.

// el("a", {href: "/", text: "home"}, child, ...): an element with attributes and children.
// Attributes that are null, undefined or false are left out; "text" sets the text content.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

export const $ = (id) => document.getElementById(id);

// An inline SVG icon from path data (24 x 24 grid), drawn in the text colour. Icons do not
// depend on the fonts installed: Debian's Chromium has no glyphs for ⏮ ◀ ▶ ⏭.
export function icon(paths) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "icon");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const d of paths) {
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  return svg;
}

// ------------------------------------------------------------------ tooltips
// Any element, HTML or SVG (the boards arrive as inline SVG), with data-tip="..." shows the
// text in one floating box: on hover, on keyboard focus, and on a long press on a touch
// screen (which would otherwise have no hover). Escape, or a tap elsewhere, hides it. The
// box is role="tooltip" and the element it describes points to it with aria-describedby
// while it shows, so a screen reader reads the tip with the focused control.
const LONG_PRESS_MS = 500;
const MOVE_TOLERANCE = 10; // px a finger may drift before a press is a scroll instead
const GAP = 8;

let tipBox = null;
let tipFor = null;
let savedDescribedBy = null;
let press = null; // {target, x, y, timer} while a finger is down on a tipped element
let swallowClick = false;

function tipTarget(node) {
  return node && node.closest ? node.closest("[data-tip]") : null;
}

export function showTip(target) {
  const text = target.getAttribute("data-tip");
  if (!tipBox || !text) return;
  if (tipFor !== target) hideTip();
  tipFor = target;
  tipBox.textContent = text;
  tipBox.hidden = false;
  savedDescribedBy = target.getAttribute("aria-describedby");
  const ids = new Set((savedDescribedBy || "").split(/\s+/).filter(Boolean));
  ids.add("tip");
  target.setAttribute("aria-describedby", [...ids].join(" "));
  placeTip();
}

export function hideTip() {
  if (!tipBox) return;
  tipBox.hidden = true;
  if (tipFor) {
    if (savedDescribedBy) tipFor.setAttribute("aria-describedby", savedDescribedBy);
    else tipFor.removeAttribute("aria-describedby");
  }
  tipFor = null;
  savedDescribedBy = null;
}

// Above the element when there is room, else below; always inside the viewport.
function placeTip() {
  if (!tipFor || tipBox.hidden) return;
  if (!tipFor.isConnected) { hideTip(); return; }
  const r = tipFor.getBoundingClientRect();
  const w = tipBox.offsetWidth, h = tipBox.offsetHeight;
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  let top = r.top - h - GAP;
  if (top < 4) top = Math.min(r.bottom + GAP, vh - h - 4);
  const left = Math.max(4, Math.min(r.left + r.width / 2 - w / 2, vw - w - 4));
  tipBox.style.left = `${Math.round(left)}px`;
  tipBox.style.top = `${Math.round(Math.max(4, top))}px`;
}

// A page re-drawn under the tip (a new view replaces the board) leaves it pointing at
// nothing: the page calls this after each render.
export function refreshTip() {
  if (tipFor && !tipFor.isConnected) hideTip();
  else placeTip();
}

function endPress() {
  if (press) clearTimeout(press.timer);
  press = null;
}

export function installTooltips() {
  if (tipBox) return;
  tipBox = el("div", { id: "tip", class: "tip", role: "tooltip", hidden: "" });
  document.body.append(tipBox);
  document.addEventListener("pointerover", (e) => {
    if (e.pointerType === "touch") return;
    const target = tipTarget(e.target);
    if (target && target !== tipFor) showTip(target);
  });
  document.addEventListener("pointerout", (e) => {
    if (e.pointerType === "touch" || !tipFor) return;
    const target = tipTarget(e.target);
    if (target === tipFor && !(e.relatedTarget && tipFor.contains(e.relatedTarget))
        && document.activeElement !== tipFor) hideTip();
  });
  document.addEventListener("focusin", (e) => {
    const target = tipTarget(e.target);
    if (target) showTip(target);
    else hideTip();
  });
  document.addEventListener("focusout", (e) => {
    if (tipFor && tipTarget(e.target) === tipFor) hideTip();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && tipFor) hideTip();
  });
  document.addEventListener("pointerdown", (e) => {
    const target = tipTarget(e.target);
    if (tipFor && target !== tipFor) hideTip(); // a tap elsewhere
    endPress();
    swallowClick = false;
    if (e.pointerType === "mouse" || !target) return;
    press = {
      target, x: e.clientX, y: e.clientY,
      timer: setTimeout(() => { showTip(target); swallowClick = true; }, LONG_PRESS_MS),
    };
  });
  document.addEventListener("pointermove", (e) => {
    if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > MOVE_TOLERANCE) endPress();
  });
  document.addEventListener("pointerup", endPress);
  document.addEventListener("pointercancel", endPress);
  // A long press shows the tip; it must not also play the move it was pressed on.
  document.addEventListener("click", (e) => {
    if (!swallowClick) return;
    swallowClick = false;
    e.preventDefault();
    e.stopPropagation();
  }, true);
  // (and a touch screen's own long-press menu would cover it)
  document.addEventListener("contextmenu", (e) => {
    if (swallowClick || (press && press.target === tipTarget(e.target))) e.preventDefault();
  });
  window.addEventListener("scroll", placeTip, true);
  window.addEventListener("resize", placeTip);
}
