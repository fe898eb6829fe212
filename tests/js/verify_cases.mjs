// Runs static/js/verify.js under node on the cases in a JSON file (a list of
// {"name", "data"}; "data" as the replay page gives it) and prints their verdicts as a
// JSON list, in order. tests/js/test_verify_js.py writes the cases from the Python
// reference (games/engine/seeded.py) and checks every verdict.
//
//   node tests/js/verify_cases.mjs cases.json
import { webcrypto } from "node:crypto";
import { readFile } from "node:fs/promises";

// Node 19+ has Web Crypto as globalThis.crypto, as browsers do; Debian 12's node 18 only
// under node:crypto.
if (!globalThis.crypto) globalThis.crypto = webcrypto;
const { verifyDeal } = await import("../../static/js/verify.js");

const path = process.argv[2];
if (!path) {
  console.error("usage: node tests/js/verify_cases.mjs CASES.json");
  process.exit(2);
}
const cases = JSON.parse(await readFile(path, "utf8"));
const verdicts = [];
for (const { name, data } of cases) {
  let verdict;
  try {
    verdict = await verifyDeal(data);
  } catch (error) {
    verdict = `error: ${error}`;
  }
  verdicts.push({ name, verdict });
}
process.stdout.write(JSON.stringify(verdicts));
