// The live connection: the whole game once, then each change; reconnects when it is lost. A page
// that holds a seat's token says hello, so every page can show that this seat's player is here.

export function connect(page, { render, update, presence, chances, again, problem, lost, back }) {
  let retry = 500;
  function open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(page.id)}/live`);
    socket.addEventListener("open", () => {
      retry = 500;
      if (page.token) socket.send(JSON.stringify({ type: "hello", token: page.token }));
      back();
    });
    socket.addEventListener("message", (message) => {
      const data = JSON.parse(message.data);
      // How far the server's clock is ahead of this one (a turn's time is counted by the server's).
      if (typeof data.sent === "number") page.clockAhead = data.sent - Date.now() / 1000;
      if (data.type === "state") render(data.game);
      else if (data.type === "update") {
        // A page that missed a change (its version is not the one this extends) asks for all of it.
        if (!page.state || data.version <= page.state.version) return;
        if (data.since !== page.state.version) socket.send(JSON.stringify({ type: "sync" }));
        else update(data);
      } else if (data.type === "presence") presence(data.connected);
      else if (data.type === "chances") chances(data);
      else if (data.type === "again") again(data);
      else if (data.type === "error") problem(data);
    });
    socket.addEventListener("close", () => {
      if (page.gone) return;
      lost();
      setTimeout(open, retry);
      retry = Math.min(retry * 2, 5000);
    });
  }
  open();
}
