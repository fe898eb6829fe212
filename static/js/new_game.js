// The new-game form shows only the options that apply to the chosen game and way of
// playing. Without this script every option shows (each says when it applies) and the
// server reads only those that apply; with it, the others are hidden and disabled, so
// they are neither seen, focused nor sent. The number of players offers only the table
// sizes the chosen game is played by (the server refuses the others too).
const form = document.querySelector("form.new-game");

function chosen(name) {
  const input = form.querySelector(`input[name="${name}"]:checked`);
  return input ? input.value : "";
}

function applies(el, now) {
  const d = el.dataset;
  if (d.modes && !d.modes.split(" ").includes(now.mode)) return false;
  if (d.scoring && !d.scoring.split(" ").includes(now.scoring)) return false;
  if (d.variants && !d.variants.split(" ").includes(now.variant)) return false;
  if (d.seat && Number(d.seat) >= now.seats) return false;
  return true;
}

function show(el, on) {
  el.hidden = !on;
  for (const input of el.querySelectorAll("input, select, textarea")) input.disabled = !on;
}

// Only the numbers of players the chosen game allows can be picked; a number it does not
// allow moves to the nearest one it does.
function seatCount(radio) {
  const select = form.elements.seat_count;
  const d = radio ? radio.closest("[data-min-players]").dataset : {};
  const low = Number(d.minPlayers || 0);
  const high = Number(d.maxPlayers || Infinity);
  for (const option of select.options) {
    const n = Number(option.value);
    option.disabled = n < low || n > high;
  }
  const now = Number(select.value);
  if (now < low) select.value = String(low);
  if (now > high) select.value = String(high);
  return Number(select.value);
}

function update() {
  const variant = chosen("variant");
  const radio = form.querySelector(`input[name="variant"][value="${variant}"]`);
  const now = {
    variant,
    scoring: radio ? radio.closest("[data-variant-scoring]").dataset.variantScoring : "",
    mode: chosen("mode"),
    seats: seatCount(radio),
  };
  for (const el of form.querySelectorAll("[data-modes], [data-scoring], [data-variants]")) {
    show(el, applies(el, now));
  }
  for (const el of form.querySelectorAll("[data-seat]")) {
    // Inside the names' fieldset: hidden with it, or beyond the number of players.
    const on = applies(el, now) && !el.closest("[data-modes]").hidden;
    show(el, on);
  }
  // The first dealer is one of the table's seats.
  const dealer = form.elements.first_dealer;
  for (const option of dealer.options) {
    option.disabled = option.value !== "" && Number(option.value) >= now.seats;
  }
  if (dealer.selectedOptions[0]?.disabled) dealer.value = "";
  showDeal(now);
}

// The deal (RULES.md section 7): the balanced deal's switch only where it is offered
// (the lines come from the server, fairness_data.balanced_deal), and the line that says
// which deal the room will use.
const dealLines = JSON.parse(document.getElementById("deal-lines").textContent);

function showDeal(now) {
  const lines = (dealLines[now.variant] || {})[String(now.seats)];
  const field = document.getElementById("balanced-deal-field");
  const offered = Boolean(lines && lines.balanced);
  show(field, offered);
  const on = offered && form.elements.balanced_deal.checked;
  const text = lines ? (on ? lines.balanced : lines.own) : "";
  const line = document.getElementById("deal-line");
  if (line.textContent !== text) line.textContent = text;
}

// Each option already says when it applies; with the form sorted for you, that is noise.
for (const note of form.querySelectorAll(".applies")) note.hidden = true;
form.addEventListener("change", update);
update();
