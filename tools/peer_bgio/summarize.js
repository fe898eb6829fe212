'use strict';
// node summarize.js <outdir>  -> markdown table of every <label>.json there
// (tools/peer_bgio: plus the server CPU split node / nginx / postgres and a
// headline line with the figures tools/bench_load.py's peer_figures reads)
const fs = require('fs');
const path = require('path');
const dir = process.argv[2];
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f))))
  .sort((a, b) => {
    const o = { saturate: 0, paced: 1, setup: 2 };
    return a.mode === b.mode ? a.matches - b.matches : o[a.mode] - o[b.mode];
  });
const setupRuns = files.filter((d) => d.mode === 'setup');
files.splice(0, files.length, ...files.filter((d) => d.mode !== 'setup'));
const msPerDraw = (d, pct) => (d.draws_per_s && pct !== null && pct !== undefined ? ((pct * 10) / d.draws_per_s).toFixed(3) : '-');
const rows = [
  '| run | matches | draws/s | p50 ms | p95 ms | p99 ms | max ms | errors (gen + server log) | server CPU % | node / nginx / pg CPU % | server CPU ms/draw | generator CPU % | other CPU % | matches done/s | update frame B | server RSS MB | load1 at start |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
];
for (const d of files) {
  const l = d.lat_every_seat_ms;
  const c = d.cpu_pct_of_one_core;
  rows.push(
    `| ${d.label} | ${d.matches} | ${d.draws_per_s} | ${l.p50} | ${l.p95} | ${l.p99} | ${l.max} | ${d.errors_total} + ${d.server_error_log_lines ?? '?'} | ${c.server} | ${c.node ?? '-'} / ${c.nginx ?? '-'} / ${c.postgres ?? '-'} | ${msPerDraw(d, c.server)} | ${c.generator} | ${c.other} | ${(d.matches_completed_in_window / d.window_s).toFixed(1)} | ${d.update_frame_bytes.mean} | ${d.server_rss_mb_end ? d.server_rss_mb_end.toFixed(0) : '?'} | ${(d.loadavg_at_start || '').split(' ')[0]} |`
  );
}
console.log(rows.join('\n'));
console.log('');
for (const d of files) {
  const nz = Object.entries(d.errors).filter(([, v]) => v);
  console.log(
    `- ${d.label}: window ${d.window_s} s after ${d.setup_s} s setup + ${d.warmup_s} s warm-up; ${d.draws_in_window} draws; ` +
      `drawer-own p50 ${d.lat_drawer_own_ms.p50} ms; matches in play (mean of 1-s samples) ${d.playing_matches_mean}; mean draws/match ${d.mean_draws_per_match}; ` +
      `matches valid ${d.matches_valid_total}/${d.matches_completed_total}; match setup p50 ${d.match_setup_ms.p50} ms; ` +
      `ws ${d.ws_frames_in_window_per_s} frames/s, ${(d.ws_bytes_in_window_per_s / 1e6).toFixed(2)} MB/s received` +
      (nz.length ? `; errors: ${nz.map(([k, v]) => `${k}=${v}`).join(', ')}` : '')
  );
}
for (const d of setupRuns) {
  const c = d.cpu_pct_of_one_core;
  console.log(
    `- ${d.label} (match turnover only, no draws): ${d.setups_per_s} match set-ups/s with ${d.matches} slots; ` +
      `server CPU ${c.server}% => ${((c.server * 10) / d.setups_per_s).toFixed(2)} ms server CPU per match set-up+teardown; ` +
      `generator CPU ${c.generator}%; set-up latency p50 ${d.match_setup_ms.p50} ms p95 ${d.match_setup_ms.p95} ms; ` +
      `errors ${d.errors_total} + ${d.server_error_log_lines ?? '?'}`
  );
}

// peer_bgio: the headline, picked as tools/bench_load.py's peer_figures picks
// it (best saturate step by draws/s; the paced run with the most matches)
{
  const sat = files.filter((d) => d.mode === 'saturate' && d.draws_per_s);
  const paced = files.filter((d) => d.mode === 'paced');
  if (sat.length && paced.length) {
    const best = sat.reduce((a, b) => (b.draws_per_s > a.draws_per_s ? b : a));
    const big = paced.reduce((a, b) => (b.matches > a.matches ? b : a));
    const c = best.cpu_pct_of_one_core;
    console.log('');
    console.log(
      `headline${best.config ? ` (config ${best.config})` : ''}: saturation ${best.draws_per_s} draws/s (${best.matches} matches); ` +
        `server CPU per draw ${msPerDraw(best, c.server)} ms = node ${msPerDraw(best, c.node)} + nginx ${msPerDraw(best, c.nginx)} + postgres ${msPerDraw(best, c.postgres)}; ` +
        `paced ${big.matches} matches p99 to every seat ${big.lat_every_seat_ms.p99} ms`
    );
  }
}
