// What the table's modules take from the page: its labels (#table-labels, #card-labels,
// so every string is in the page's language), its elements by id, the seats' colour words
// and badge letters, and whether it asks for reduced motion.

export const L = document.getElementById("table-labels").dataset;
export const CL = document.getElementById("card-labels").dataset;
export const $ = (id) => document.getElementById(id);
export const colours = L.colours.split("|");
export const letters = L.letters.split("|");
export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
export const wait = (ms) => new Promise((done) => setTimeout(done, ms));
