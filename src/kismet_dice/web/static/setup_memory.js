// The last set-up started from this browser (names, who plays each seat, the house rule and the
// time per turn), kept in localStorage so the lobby offers it next time.

const KEY = "kismet-last-setup";

export function lastSetup() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "null");
    if (!kept || !Array.isArray(kept.players) || !kept.players.length) return null;
    return kept;
  } catch {
    return null;
  }
}

export function keepSetup(setup) {
  try {
    localStorage.setItem(KEY, JSON.stringify(setup));
  } catch {
    // Not kept: the next lobby starts from one empty seat, as the first did.
  }
}
