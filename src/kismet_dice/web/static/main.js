// One page for every address: the path says what to show.

import { showHall } from "./hall.js";
import { showLobby } from "./lobby.js";
import { showRules } from "./rules.js";
import { showTable } from "./table.js";

const main = document.getElementById("main");
const path = location.pathname;
const game = path.match(/^\/games\/([A-Za-z0-9_-]+)$/);

if (game) showTable(main, game[1]);
else if (path === "/rules") showRules(main);
else if (path === "/hall") showHall(main);
else showLobby(main);
