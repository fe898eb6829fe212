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
