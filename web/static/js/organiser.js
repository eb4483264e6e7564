// The organiser's PIN form and decisions on the venue pages (companion league).

import { notice, onSubmit, post } from "./live.js";
import { t } from "./words.js";

const venue = document.querySelector(".venue");
const csrf = () => ({ "X-CSRF-Token": venue.dataset.csrf || "" });

export function organiserForms() {
  const login = document.getElementById("organiser-login");
  if (login) onSubmit(login, async () => {
    const res = await post("/api/login", { pin: document.getElementById("organiser-pin").value });
    if (res.ok) location.reload();
    else notice(res.status === 429 ? t("ui.too_many_pins") : t("ui.wrong_pin"));
  });
  const decision = document.getElementById("decision");
  if (decision) onSubmit(decision, async (event) => {
    const note = decision.elements.note.value.trim();
    const res = await post(`/api/games/${decision.dataset.game}/decision`,
      { decision: event.submitter.value, note: note || null }, csrf());
    if (res.ok) location.reload();
    else notice(res.body.error || String(res.status));
  });
}
