// Small DOM helpers shared by the lobby and the game page.

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
