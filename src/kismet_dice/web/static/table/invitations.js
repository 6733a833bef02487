// The host's invitations: each seat's link with a Copy button and a QR code (for a phone at the
// same table), shown until that seat's player joins; then only a line says they are here. They
// fold under a summary with the count still waiting: open on a wide screen, closed on a phone
// (style.css says which), where they sit above the dice.

import * as api from "../api.js";
import { copyButton, el } from "../dom.js";
import { gameOf } from "../games.js";
import { connected } from "./state.js";

export function invitationsPanel(page) {
  const section = el("section", { id: "invitations", class: "invitations", "aria-labelledby": "invitations-title" });
  const count = el("span", { class: "waiting-count" });
  const box = el("details", { class: "invitations-box" }, el("summary", {}, el("h2", { id: "invitations-title" }, "Invitations"), count));
  let opened = false; // opened or closed once, by the layout, on the first draw
  const kept = gameOf(page.id);
  const invitations = kept && Array.isArray(kept.invitations) ? kept.invitations : [];
  const absolute = (link) => new URL(link, location.origin).href;
  const items = new Map();

  for (const invitation of invitations) {
    const link = absolute(invitation.link);
    const input = el("input", {
      type: "text",
      readonly: true,
      class: "invitation",
      id: `invitation-${invitation.seat}`,
      value: link,
      dataset: { seat: String(invitation.seat) },
      "aria-label": `Invitation link for ${invitation.name}`,
    });
    const [copy, copied] = copyButton(input, link, { dataset: { seat: String(invitation.seat) } });
    const picture = el("div", { class: "qr", "aria-label": `QR code of ${invitation.name}'s link`, role: "img" });
    api.qr(link).then(
      (svg) => picture.replaceChildren(svg),
      () => picture.replaceChildren(),
    );
    const waiting = el("div", { class: "invite-waiting" }, el("div", { class: "invite-link" }, input, copy, copied), picture);
    const joined = el("p", { class: "joined", hidden: true }, `${invitation.name} has joined.`);
    items.set(invitation.seat, { waiting, joined });
    box.append(
      el("div", { class: "invitation-item", dataset: { seat: String(invitation.seat) } }, el("h3", {}, invitation.name), waiting, joined),
    );
  }

  if (invitations.length) {
    box.querySelector("summary").after(
      el("p", { class: "hint" }, "Send each player their own link: whoever holds it plays that seat. The game's plain link only watches."),
    );
    section.append(box);
  } else section.hidden = true;

  function draw() {
    // A finished game invites nobody: the end (and play again) takes the invitations' place.
    section.hidden = !invitations.length || page.state.over;
    const here = connected(page);
    let waitingFor = 0;
    for (const [seat, { waiting, joined }] of items) {
      waiting.hidden = here.has(seat);
      joined.hidden = !here.has(seat);
      if (!here.has(seat)) waitingFor += 1;
    }
    section.classList.toggle("all-joined", waitingFor === 0);
    count.textContent = waitingFor ? `${waitingFor} of ${items.size} not here yet` : "everyone is here";
    if (!opened && section.isConnected) {
      opened = true;
      box.open = getComputedStyle(section).getPropertyValue("--invitations-open").trim() !== "closed";
    }
  }
  return { node: section, draw };
}
