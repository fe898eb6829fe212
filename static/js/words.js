// Names and counted words for the table, from templates/lobby/_seat_labels.html (the
// page's <template id="seat-labels">), so every word comes from Django's translations.
//
//   seatName(seat, room)             a seat's one short name, everywhere on the table
//                                    and the room page: "Clara" (a computer's own name)
//                                    or the human's
//   seatWhat(seat, room)             its second line where there is room: "computer · easy",
//                                    or "bot" for a bot account's seat
//                                    (the server writes both with its seat_name tag)
//   counted("cards", {n: 3})         "3 cards": the singular or plural sentence for n
//   fill(text, {seat: "Ann"})        a label's {placeholders} filled, for every script
//   sentences(a, b, ...)             sentences one after another: a space between them,
//                                    none after Japanese and Chinese "。"
//   listed(["Ann", "Mia"])           names in a list: "Ann, Mia", "Ann、Mia" (the
//                                    catalogue's list separator, data-list-separator)
//
// Each takes the labels (a dataset) last, and counted() the language after them; both
// default to the page's.
const pageLabels = () => document.getElementById("seat-labels").dataset;
const pageLanguage = () => globalThis.document?.documentElement?.lang || "en";

const rules = new Map();
function pluralRules(lang) {
  if (!rules.has(lang)) {
    let r;
    try {
      r = new Intl.PluralRules(lang);
    } catch {
      r = new Intl.PluralRules("en");
    }
    rules.set(lang, r);
  }
  return rules.get(lang);
}

/** A label with its {placeholders} filled from values; a placeholder values lacks reads "". */
export const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => values[k] ?? "");

/** Written without spaces between words or sentences: Japanese and Chinese. */
const withoutSpaces = (lang) => /^(ja|zh)\b/.test(lang);

/** Sentences one after another (the empty ones left out). */
export function sentences(...parts) {
  return parts.filter(Boolean).join(withoutSpaces(pageLanguage()) ? "" : " ");
}

/** Names in a list, with the catalogue's separator (", " or "、"). */
export function listed(names, labels = pageLabels()) {
  return names.join(labels.listSeparator || ", ");
}

function levelWord(level, labels) {
  return labels[`computerLevel${level.charAt(0).toUpperCase()}${level.slice(1)}`] || level;
}

/** A computer seat's own name alone ("Hugo") and its level ("medium"): a name tag at a
 * crowded table shows them on two lines (the seats panel gives the whole name). */
export function computerParts(seat, level, labels = pageLabels()) {
  const names = labels.computerNames.split("|");
  return { name: names[seat % names.length], what: levelWord(level, labels) };
}

export function seatName(seat, room, labels = pageLabels()) {
  return seat.kind === "computer" ? computerParts(seat.index, room.computer_level, labels).name : seat.name;
}

export function seatWhat(seat, room, labels = pageLabels()) {
  if (seat.bot) return labels.botWhat; // a computer player someone wrote (docs/bots.md)
  if (seat.kind !== "computer") return "";
  return fill(labels.computerWhat, { level: levelWord(room.computer_level, labels) });
}

// key: "cards", "yourTurn", "points", "strikes" or "spectators"; values must hold n.
export function counted(key, values, labels = pageLabels(), lang = pageLanguage()) {
  const form = pluralRules(lang).select(values.n) === "one" ? "One" : "Other";
  return fill(labels[`${key}${form}`], values);
}
