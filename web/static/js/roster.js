// The league's player names for the New game form: a datalist the name fields offer.
// The table keeps the last roster it heard (GET /api/roster), so this works offline too.

import { el, replace } from "./live.js";

const list = document.getElementById("roster");
fetch("/api/roster", { credentials: "same-origin" })
  .then((res) => (res.ok ? res.json() : { players: [] }))
  .then((data) => replace(list, data.players.map((name) => el("option", { value: name }))))
  .catch(() => { /* no roster: the fields take any name */ });
