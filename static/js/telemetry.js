// Anonymous telemetry, sent only to our own server and only while the switch is on.
// The choice is remembered in this browser; Global Privacy Control or Do Not Track
// start it off. Only the closed-set fields listed on the rules page are ever sent.
const STORAGE_KEY = "telemetry";
const URL = "/telemetry/events/";

function privacySignal() {
  return navigator.globalPrivacyControl === true || navigator.doNotTrack === "1"
    || window.doNotTrack === "1";
}

export function enabled() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved === "on") return true;
  if (saved === "off") return false;
  return !privacySignal();
}

export function setEnabled(on) {
  localStorage.setItem(STORAGE_KEY, on ? "on" : "off");
}

function family(ua, table) {
  for (const [name, pattern] of table) if (pattern.test(ua)) return name;
  return "other";
}

function bucket(value, edges, labels) {
  if (!value) return "unknown";
  for (let i = 0; i < edges.length; i++) if (value < edges[i]) return labels[i];
  return labels[labels.length - 1];
}

// Device class: families and buckets only, worked out here; the raw strings never leave.
function device() {
  const ua = navigator.userAgent;
  return {
    phone: matchMedia("(pointer: coarse)").matches && Math.min(screen.width, screen.height) < 768 ? "yes" : "no",
    memory: bucket(navigator.deviceMemory, [2, 4, 8], ["<2", "2-4", "4-8", ">8"]),
    cores: bucket(navigator.hardwareConcurrency, [3, 5, 9], ["1-2", "3-4", "5-8", ">8"]),
    browser: family(ua, [["edge", /Edg\//], ["samsung", /SamsungBrowser/], ["firefox", /Firefox\//],
      ["chrome", /Chrome\/|Chromium\//], ["safari", /Safari\//]]),
    os: family(ua, [["android", /Android/], ["ios", /iPhone|iPad|iPod/], ["chromeos", /CrOS/],
      ["windows", /Windows/], ["macos", /Mac OS X/], ["linux", /Linux/]]),
  };
}

export function send(kind, fields) {
  if (!enabled()) return false;
  const body = JSON.stringify({ kind, ...device(), ...fields });
  const blob = new Blob([body], { type: "application/json" });
  if (navigator.sendBeacon) return navigator.sendBeacon(URL, blob);
  fetch(URL, { method: "POST", body, headers: { "Content-Type": "application/json" }, keepalive: true });
  return true;
}

// Every switch on the page (rules page, table settings) shows and changes the choice.
for (const box of document.querySelectorAll("input[data-telemetry-switch]")) {
  box.checked = enabled();
  box.addEventListener("change", () => {
    setEnabled(box.checked);
    for (const other of document.querySelectorAll("input[data-telemetry-switch]")) other.checked = box.checked;
  });
}
