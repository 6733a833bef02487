// Building the page: every piece of text goes in with textContent, never as HTML,
// so a player's name can never become markup or script.

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A Copy button for a link shown in a read-only field, and the line that says what it did: where
// the clipboard is refused (a page not served over https, say), the link is selected to copy by hand.
export function copyButton(input, link, attributes = {}) {
  const copied = el("span", { class: "copied", role: "status" });
  const copy = el("button", { type: "button", class: "copy", ...attributes }, "Copy");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
      copied.textContent = "Copied";
    } catch {
      input.select();
      copied.textContent = "Select the link and copy it";
    }
  });
  return [copy, copied];
}

export function replace(parent, ...children) {
  parent.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined));
}
