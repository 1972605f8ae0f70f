// Sandtable's browser client: the lobby (`/`) and the game page (`/game/{id}`).
//
// Plain JavaScript modules, no build step and no framework: the server embeds these files,
// index.html and style.css into its binary, and the browser loads the modules itself.
// Everything the page knows about a game comes from the web API (docs/api.md); the rules stay
// on the server. The page only shows the board the server draws, lets the player pick among
// the legal actions the server lists (by clicking counters and hexes or from the action
// panel), and sends the chosen one back.
//
// The modules: words.js (every word of the page in English and Chinese), util.js (small
// helpers), lobby.js, board.js (the map, panned and zoomed), game.js (the game page), and
// this one, which picks the page for the address. Our own CSS classes start with `st-` so
// that they never meet the classes of the inline board SVG.

import { GamePage } from './game.js';
import { Lobby } from './lobby.js';
import { lang, onLangChange } from './words.js';

let page = null;

/** Shows the page for the address: a game, or the lobby. */
function route() {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  if (page && page.destroy) page.destroy();
  const m = location.pathname.match(/^\/game\/([^/]+)\/?$/);
  page = m ? new GamePage(decodeURIComponent(m[1])) : new Lobby();
  page.start();
}

onLangChange(() => { if (page && page.onLang) page.onLang(); });
window.addEventListener('popstate', route);
route();
