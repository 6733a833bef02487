// The JSON API. A refusal comes back as {"error": "..."}; it is thrown as an Error with that text.

export const SEAT_TOKEN_HEADER = "X-Seat-Token";

async function call(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers[SEAT_TOKEN_HEADER] = token;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new Error("the server cannot be reached");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new Error((data && data.error) || `the server answered ${response.status}`);
  return data;
}

export const newGame = (players, zeroKismetCounts, turnSeconds = null) =>
  call("POST", "/api/games", { players, zero_kismet_counts: zeroKismetCounts, turn_seconds: turnSeconds });
export const getGame = (id) => call("GET", `/api/games/${encodeURIComponent(id)}`);
export const roll = (id, token, hold) => call("POST", `/api/games/${encodeURIComponent(id)}/roll`, { hold }, token);
export const score = (id, token, box) => call("POST", `/api/games/${encodeURIComponent(id)}/score`, { box }, token);
export const rulesHtml = () => call("GET", "/api/rules.html");
export const helpHtml = () => call("GET", "/api/help.html");
export const again = (id, token) => call("POST", `/api/games/${encodeURIComponent(id)}/again`, undefined, token);

// A link as a QR code: SVG drawn on the server, parsed here (never run as markup of the page).
export async function qr(link) {
  const response = await fetch("/api/qr", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ link }),
  });
  if (!response.ok) throw new Error("the QR code could not be made");
  const svg = new DOMParser().parseFromString(await response.text(), "image/svg+xml").documentElement;
  return document.importNode(svg, true);
}
export const seat = (id, token) => call("GET", `/api/games/${encodeURIComponent(id)}/seat`, undefined, token);
export const hall = () => call("GET", "/api/hall");
export const advice = (id, token) => call("POST", `/api/games/${encodeURIComponent(id)}/advice`, undefined, token);
export const adviceChances = (id, token) =>
  call("POST", `/api/games/${encodeURIComponent(id)}/advice/chances`, undefined, token);
export const proficiency = (id) => call("GET", `/api/games/${encodeURIComponent(id)}/proficiency`);
export const enterHall = (id, token, name) =>
  call("POST", `/api/games/${encodeURIComponent(id)}/hall`, { name }, token);
export const limits = () => call("GET", "/api/limits");
export const chartReference = () => call("GET", "/api/chart-reference");
export const stats = (name) => call("GET", name === undefined ? "/api/stats" : `/api/stats/${encodeURIComponent(name)}`);
export const resign = (id, token) => call("POST", `/api/games/${encodeURIComponent(id)}/resign`, undefined, token);
// The sentences every interface says the same (the session writes each once).
export const words = () => call("GET", "/api/words");
