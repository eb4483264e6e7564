// The PIN form of the Godfather's pages: POST /api/login, then reload as logged in.

import { notice, onSubmit, post } from "./live.js";
import { t } from "./words.js";

onSubmit(document.getElementById("login"), async () => {
  const res = await post("/api/login", { pin: document.getElementById("pin").value });
  if (res.ok) location.reload();
  else notice(res.status === 429 ? t("ui.too_many_pins") : t("ui.wrong_pin"));
});
