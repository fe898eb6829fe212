// The room page: live seats and status over the table socket, and the invitation link.
const root = document.getElementById("room");
const labels = document.getElementById("room-labels").dataset;
const seatsList = document.getElementById("seats");
const statusLine = document.getElementById("room-status");

function renderSeats(state) {
  for (const seat of state.seats) {
    let item = seatsList.querySelector(`[data-seat="${seat.index}"]`);
    if (!item) continue;
    const name = item.querySelector(".name");
    const notes = [];
    if (state.you.includes(seat.index)) notes.push(labels.you);
    if (seat.left) notes.push(labels.left);
    else if (seat.covered) notes.push(labels.covered);
    else if (seat.away) notes.push(labels.away);
    const shown = seat.kind === "empty" ? labels.empty : (seat.kind === "computer" ? labels.computer : seat.name);
    name.textContent = notes.length ? `${shown} (${notes.join(", ")})` : shown;
    item.dataset.kind = seat.kind;
    syncRemoveButton(item, seat, state);
  }
  statusLine.textContent = labels[state.room.status] || state.room.status;
  if (state.room.status !== "waiting") {
    for (const el of document.querySelectorAll(".host-controls, .invite, .seats form")) el.remove();
    document.getElementById("seats-section")?.setAttribute("hidden", "");
    // The link to watch sat beside the invitation; it stays, below the table.
    document.getElementById("watch-section")?.removeAttribute("hidden");
  }
  document.dispatchEvent(new CustomEvent("table-state", { detail: state }));
}

// The host may free a waiting player's seat; players who join live get the button too.
function syncRemoveButton(item, seat, state) {
  const wanted = root.dataset.host === "1" && state.room.status === "waiting"
    && seat.kind === "human" && seat.index > 0;
  const form = item.querySelector("form");
  if (!wanted) { form?.remove(); return; }
  if (form) return;
  const added = document.createElement("form");
  added.method = "post";
  added.className = "inline";
  added.action = `/r/${root.dataset.code}/remove/${seat.index}/`;
  const csrf = document.createElement("input");
  csrf.type = "hidden";
  csrf.name = "csrfmiddlewaretoken";
  csrf.value = root.dataset.csrf;
  const button = document.createElement("button");
  button.type = "submit";
  button.className = "small";
  button.textContent = `${labels.remove} ${seat.name}`;
  added.append(csrf, button);
  item.append(added);
}

let delay = 500;
let reconnects = 0;
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = root.dataset.token ? `?t=${encodeURIComponent(root.dataset.token)}` : "";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/rooms/${root.dataset.code}/${query}`);
  window.tableSocket = socket;
  socket.onopen = () => {
    delay = 500;
    document.dispatchEvent(new CustomEvent("table-connection", { detail: { ok: true, reconnects } }));
  };
  socket.onmessage = (e) => {
    const message = JSON.parse(e.data);
    if (message.type === "state") renderSeats(message);
    else document.dispatchEvent(new CustomEvent("table-message", { detail: message }));
  };
  socket.onclose = (e) => {
    // The room is gone, or this page may not open a socket to it (4403, which is also
    // the answer to a foreign Origin): trying again would not change that.
    if (e.code === 4404 || e.code === 4403) return;
    reconnects++;
    if (reconnects === 5) {
      document.dispatchEvent(new CustomEvent("table-connection", { detail: { ok: false, reconnects } }));
    }
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 10000);
  };
}
connect();

const link = document.getElementById("invite-link");
const share = document.getElementById("share-link");
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
if (share && link && navigator.share) {
  share.hidden = false;
  share.addEventListener("click", () => {
    navigator.share({ title: share.dataset.title, url: link.value }).catch(() => {});
  });
}
