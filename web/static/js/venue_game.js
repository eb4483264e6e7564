// A game of the league (/games/<id>) and a player's history (/players/<id>): money in the
// page's language, the tablet's own end chart, the organiser's decisions.

import { finalPanel } from "./final.js";
import { replace } from "./live.js";
import { money } from "./words.js";
import { organiserForms } from "./organiser.js";

for (const cell of document.querySelectorAll(".money[data-amount]")) cell.textContent = money(Number(cell.dataset.amount));
const chart = document.getElementById("chart");
const data = chart ? JSON.parse(chart.textContent) : null;
if (data) replace(document.getElementById("final"), finalPanel(data));
organiserForms();
