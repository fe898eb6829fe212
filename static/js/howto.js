// "How to play" in four pictures (templates/pages/_howto.html): a modal dialog, opened by
// itself on a person's first table (remembered on the device), and again by any
// [data-howto-open] button (the table's panel, the rules page). The native <dialog> keeps
// focus inside while open and closes on Escape; focus goes back to what opened it.

export const SEEN_KEY = "howto-seen";

const dialog = document.getElementById("howto");
let opener = null;

function seen() {
  try {
    return localStorage.getItem(SEEN_KEY) === "1";
  } catch {
    return true; // no storage: never pop up by itself on every visit
  }
}

function remember() {
  try {
    localStorage.setItem(SEEN_KEY, "1");
  } catch {
    // storage refused: it was seen all the same
  }
}

/** Open the dialog; ``from`` gets the focus back once it closes. */
export function openHowto(from) {
  if (!dialog || dialog.open) return;
  opener = from || null;
  dialog.showModal();
}

if (dialog) {
  dialog.addEventListener("close", () => {
    remember();
    const back = opener;
    opener = null;
    if (back && back.isConnected) back.focus();
  });
  // A click on the backdrop (outside the box) closes it too.
  dialog.addEventListener("click", (e) => {
    if (e.target === dialog) {
      const r = dialog.getBoundingClientRect();
      const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
      if (!inside) dialog.close();
    }
  });
  document.addEventListener("click", (e) => {
    const button = e.target.closest && e.target.closest("[data-howto-open]");
    if (button) openHowto(button);
  });
  // A first table: once the table shows a round (not a replay), unless seen on this device.
  if (dialog.dataset.firstVisit === "1" && !seen()) {
    const first = (e) => {
      const state = e.detail;
      if (!state || state.replay || !state.round) return;
      document.removeEventListener("table-state", first);
      if (seen()) return;
      openHowto(document.getElementById("table-area"));
    };
    document.addEventListener("table-state", first);
  }
}
