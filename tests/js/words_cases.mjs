// Runs static/js/words.js under node: reads {"labels", "lang", "seats", "counts"} from a
// JSON file (labels: the dataset of templates/lobby/_seat_labels.html) and prints what
// the table would show, as JSON. tests/js/test_words_js.py compares it with the server.
//
//   node tests/js/words_cases.mjs case.json
import { readFile } from "node:fs/promises";
import { counted, seatName, seatWhat } from "../../static/js/words.js";

const c = JSON.parse(await readFile(process.argv[2], "utf8"));
const names = {};
for (const level of ["easy", "medium", "hard"]) {
  const room = { computer_level: level };
  names[level] = c.seats.map((index) => {
    const seat = { index, kind: "computer", name: "" };
    return [seatName(seat, room, c.labels), seatWhat(seat, room, c.labels)];
  });
}
const room = { computer_level: "hard" };
const seats = [
  seatName({ index: 0, kind: "human", name: "Mia" }, room, c.labels),
  seatName({ index: 3, kind: "computer", name: "" }, room, c.labels),
];
const counts = {};
for (const key of ["cards", "points", "strikes", "spectators"]) {
  counts[key] = c.counts.map((n) => counted(key, { n }, c.labels, c.lang));
}
counts.yourTurn = c.counts.map((n) => counted("yourTurn", { n, giver: "Ann" }, c.labels, c.lang));
console.log(JSON.stringify({ names, seats, counts }));
