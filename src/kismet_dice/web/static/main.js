// One page for every address: the path says what to show. The rules and the help come rendered
// from the server; the other pages are drawn here.

import { showHall } from "./hall.js";
import { showLobby } from "./lobby.js";
import { installSettings } from "./settings.js";
import { showPlayerStats, showStats } from "./stats.js";
import { showTable } from "./table/index.js";

installSettings();
const main = document.getElementById("main");
const path = location.pathname;
const game = path.match(/^\/games\/([A-Za-z0-9_-]+)$/);
const player = path.match(/^\/stats\/([^/]+)$/);

if (game) showTable(main, game[1]);
else if (path === "/hall") showHall(main);
else if (path === "/") showLobby(main);
else if (path === "/stats") showStats(main);
else if (player) showPlayerStats(main, decodeURIComponent(player[1]));
