// The way back to a crowd platform (Prolific, MTurk): once a worker who came through a campaign's join link holds a
// completion code, show it a few seconds, then send them on. The server builds the platform's URL, after checking
// that the code is theirs (dialogs.crowd.crowd_return_url). A page without `data-return-url` does nothing here.

import { formatNumber, gettext, interpolate, ngettext } from "./i18n.js";

let scheduled = false;

export function returnToPlatform(root, note, code) {
  const url = root.dataset.returnUrl;
  if (!url || !code || scheduled) return false;
  scheduled = true;
  const target = `${url}?code=${encodeURIComponent(code)}`;
  const platform = root.dataset.returnPlatform || gettext("the study's platform");
  let seconds = Math.max(0, Number(root.dataset.returnDelay) || 0);
  const text = document.createElement("span");
  const link = document.createElement("a");
  link.href = target;
  link.textContent = interpolate(gettext("Go back to %(platform)s now"), { platform }, true);
  link.setAttribute("data-testid", "return-link");
  const draw = () => {
    text.textContent = interpolate(
      ngettext("Taking you back to %(platform)s with your code in %(seconds)s second… ",
        "Taking you back to %(platform)s with your code in %(seconds)s seconds… ", seconds),
      { platform, seconds: formatNumber(seconds) }, true);
  };
  draw();
  note.replaceChildren(text, link);
  note.hidden = false;
  const timer = setInterval(() => {
    seconds -= 1;
    if (seconds > 0) {
      draw();
      return;
    }
    clearInterval(timer);
    text.textContent = interpolate(gettext("Taking you back to %(platform)s… "), { platform }, true);
    location.assign(target);
  }, 1000);
  if (seconds === 0) {
    clearInterval(timer);
    location.assign(target);
  }
  return true;
}
