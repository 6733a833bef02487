// The rules page (and the ? overlay): RULES.md drawn as headings, paragraphs, lists and tables.

import { rules } from "./api.js";
import { el } from "./dom.js";

function inline(text) {
  // **bold** only; everything is text nodes.
  const parts = text.split(/\*\*(.+?)\*\*/g);
  return parts.map((part, index) => (index % 2 ? el("strong", {}, part) : part.replaceAll("`", "")));
}

export function renderRules(markdown) {
  const out = [];
  let list = null;
  let table = null;
  for (const line of markdown.split("\n")) {
    if (!line.startsWith("|")) table = null;
    if (!/^\s*- /.test(line) && !/^\s{2,}\S/.test(line)) list = null;
    if (line.startsWith("#")) {
      const level = Math.min(line.match(/^#+/)[0].length + 1, 4);
      out.push(el(`h${level}`, {}, line.replace(/^#+\s*/, "")));
    } else if (/^\s*- /.test(line)) {
      if (!list) out.push((list = el("ul")));
      list.append(el("li", {}, inline(line.replace(/^\s*- /, ""))));
    } else if (list && /^\s{2,}\S/.test(line)) {
      list.lastChild.append(" ", ...inline(line.trim()));
    } else if (/^\s*\d+\. /.test(line)) {
      out.push(el("p", { class: "step" }, inline(line.trim())));
    } else if (line.startsWith("|")) {
      const cells = line.split("|").slice(1, -1).map((cell) => cell.trim());
      if (cells.every((cell) => /^-+$/.test(cell))) continue;
      if (!table) {
        table = el("table", { class: "rules-table" });
        out.push(el("div", { class: "scroll" }, table));
        table.append(el("tr", {}, cells.map((cell) => el("th", {}, inline(cell)))));
      } else {
        table.append(el("tr", {}, cells.map((cell) => el("td", {}, inline(cell)))));
      }
    } else if (line.trim()) {
      const last = out[out.length - 1];
      if (last && last.tagName === "P" && !last.classList.contains("step")) last.append(" ", ...inline(line));
      else out.push(el("p", {}, inline(line)));
    } else {
      out.push(el("span", { hidden: true }));
    }
  }
  return out.filter((node) => !(node.tagName === "SPAN" && node.hidden));
}

let cached = null;
export async function rulesNodes() {
  if (cached === null) cached = (await rules()).text;
  return renderRules(cached);
}

export async function showRules(main) {
  try {
    main.replaceChildren(el("article", { class: "rules" }, await rulesNodes()));
  } catch (failure) {
    main.replaceChildren(el("p", { class: "error" }, failure.message));
  }
}
