// What a table page knows: the game as the server last sent it, and this page's own choices
// (held dice, the chosen box, advice). Every panel draws from it; nothing else holds the game.

export const BOX_KEYS = "abcdefgijklmnop"; // one letter per box, in sheet order; h is advice

export function newPage(id, token) {
  return {
    id,
    token,
    seat: null, // the seat this page plays, once the server has confirmed the token
    state: null,
    held: new Set(),
    choice: null, // the box chosen and not yet entered (two-step entry)
    zeroAsked: null, // the box whose zero is asked about before it is entered at once
    busy: false,
    gone: false,
    warned: false, // the person has agreed that advice keeps the game out of the Hall of Fame
    advice: null, // {version, options} for the dice it was asked about
    askedComputer: false, // advice or the verdict asked the computer: its readiness is news here
    limits: null,
    words: null, // the sentences every interface says the same, from the server
    newsShown: new Set(), // news already said on this page (each is said once)
    next: null, // where the next game with the same players is watched, once someone starts it
    startingAgain: false, // this page asked for the next game: it moves there from its answer
    clockAhead: 0, // seconds the server's clock is ahead of this browser's (from its messages)
  };
}

export const mine = (page) =>
  page.state !== null && page.seat !== null && page.state.current_player === page.seat && !page.state.over;

export function openBoxes(page) {
  const state = page.state;
  if (!state || state.current_player === null) return [];
  return state.players[state.current_player].sheet.filter((entry) => entry.points === null);
}

export const canScore = (page) => mine(page) && page.state.dice.length > 0;

// Whether the end calls this seat's player the winner in words. A game of one has no one to beat:
// its result says what the player scored, and no badge says "wins" (the column is still drawn
// as a winner's, the end's colours).
export const namedWinner = (state, seat) => state.players.length > 1 && state.winners.includes(seat);

// " (computer, hard)" after a computer's name, unless the name says its level already (the server's
// `described` is the name with it).
export const levelNote = (player) => player.described.slice(player.name.length);

export const connected = (page) => new Set(page.state ? page.state.connected || [] : []);
