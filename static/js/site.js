// Every page: the header's menu button (phones) and the language menu.
const button = document.querySelector(".menu-button");
const menu = document.getElementById("site-menu");

function setOpen(open) {
  button.setAttribute("aria-expanded", String(open));
  menu.classList.toggle("open", open);
}

if (button && menu) {
  button.addEventListener("click", () => setOpen(button.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && menu.classList.contains("open")) {
      setOpen(false);
      button.focus();
    }
  });
  document.addEventListener("click", (e) => {
    if (menu.classList.contains("open") && !e.target.closest(".site-header")) setOpen(false);
  });
}

// Choosing a language applies it at once (a button stands in without JavaScript).
for (const select of document.querySelectorAll("select[data-autosubmit]")) {
  select.addEventListener("change", () => select.form.requestSubmit());
}

// A button with data-copy copies its field (an invitation link, a bot's token) and says so.
for (const copy of document.querySelectorAll("button[data-copy]")) {
  const field = document.getElementById(copy.dataset.copy);
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      field.select();
      document.execCommand("copy");
    }
    const before = copy.textContent;
    copy.textContent = copy.dataset.done;
    setTimeout(() => { copy.textContent = before; }, 2000);
  });
}

// A table wider than the screen scrolls sideways in its .table-scroll box: make that box
// reachable with the keyboard (Tab, then the arrow keys) whenever it does scroll.
function scrollersFocusable() {
  for (const box of document.querySelectorAll(".table-scroll")) {
    if (box.scrollWidth > box.clientWidth) box.tabIndex = 0;
    else box.removeAttribute("tabindex");
  }
}
scrollersFocusable();
addEventListener("resize", scrollersFocusable);

// The sound switches (the menu's, and the table's on a table page): one setting, remembered
// on this device; on unless switched off. The table's sound (table/sound.js) reads it
// before every cue and hears of a change by the "sound-setting" event.
const SOUND_KEY = "oldmaid.sound";
const soundSwitches = document.querySelectorAll("button[data-sound-switch]");

function soundIsOn() {
  try {
    return localStorage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true;
  }
}

function showSound() {
  const on = String(soundIsOn());
  for (const button of soundSwitches) button.setAttribute("aria-pressed", on);
}

for (const button of soundSwitches) {
  button.addEventListener("click", () => {
    const on = !soundIsOn();
    try {
      localStorage.setItem(SOUND_KEY, on ? "on" : "off");
    } catch {
      return;
    }
    showSound();
    document.dispatchEvent(new CustomEvent("sound-setting", { detail: { on } }));
  });
}
showSound();
addEventListener("storage", (e) => { if (e.key === SOUND_KEY) showSound(); });
