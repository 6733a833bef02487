// "Your games": the links this browser holds (localStorage), to come back to an unfinished game.
// A host's entry keeps the invitations too, so they stay at hand until every seat has joined.

const KEY = "kismet-games";
const MOST = 20;

export function yourGames() {
  try {
    const games = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(games) ? games : [];
  } catch {
    return [];
  }
}

function keep(games) {
  try {
    localStorage.setItem(KEY, JSON.stringify(games.slice(0, MOST)));
  } catch {
    // Nothing kept: the links still work for as long as the page is open.
  }
}

export const gameOf = (id) => yourGames().find((game) => game.id === id) || null;

export function remember(id, changes) {
  const games = yourGames();
  const found = games.find((game) => game.id === id);
  const game = { id, started: Date.now(), over: false, ...found, ...changes };
  keep([game, ...games.filter((other) => other.id !== id)]);
  return game;
}

export const forget = (id) => keep(yourGames().filter((game) => game.id !== id));
