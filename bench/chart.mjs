// docs/performance.md's chart: bench/results.svg from the last runs' bench/results-postgres.json, bench/results-pglite.json and
// bench/tti.json (whichever exist). Each bar is a measured figure against issue 14's target for it, drawn as a line:
// throughput as a share of its floor (longer is better), the rest as a share of its ceiling (shorter is better).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const read = (name) => {
  const url = new URL(name, import.meta.url);
  return existsSync(url) ? JSON.parse(readFileSync(url, 'utf8')) : undefined;
};
const pg = read('./results-postgres.json');
const pglite = read('./results-pglite.json');
const tti = read('./tti.json');

/** { label, value, target, better: 'higher' | 'lower', text } */
const bars = [];
const row = (results, prefix, workers = 1) => results?.rows.find((r) => r.name.startsWith(prefix) && (r.workers ?? 1) === workers);
const ratioBar = (label, r, target) => r && bars.push({ label, value: r.ratio, target, better: 'higher', text: `${r.ratio.toFixed(3)}× (${Math.round(r.rps).toLocaleString('en')} req/s)` });
ratioBar('floating quote, PostgreSQL, 1 process', row(pg, 'floating quote'), 0.25);
ratioBar(`floating quote, PostgreSQL, ${pg?.rows.find((r) => r.workers > 1)?.workers ?? 'n'} processes`, pg?.rows.find((r) => r.name.startsWith('floating quote') && r.workers > 1), 0.25);
ratioBar('floating quote, PGlite', row(pglite, 'floating quote'), 0.1);
const many = pg?.rows.find((r) => r.workers > 1)?.workers ?? 'n';
ratioBar('customer read, one customer, PostgreSQL, 1 process', row(pg, 'customer read with'), 0.2);
ratioBar(`customer read, one customer, PostgreSQL, ${many} processes`, row(pg, 'customer read with', many), 0.2);
ratioBar('customer read, customer per client, PostgreSQL, 1 proc.', row(pg, 'customer read, a customer per client'), 0.2);
ratioBar(`customer read, customer per client, PostgreSQL, ${many} proc.`, row(pg, 'customer read, a customer per client', many), 0.2);
for (const p of pg?.lockOnRamp?.runs ?? []) {
  if (p.ratio === undefined) continue;
  const who = p.customers === 1 ? 'one customer' : 'a customer per client';
  bars.push({ label: `lock + on-ramp vs pgbench, ${who}, ${p.workers} proc.`, value: p.ratio, target: 0.25, better: 'higher', text: `${p.ratio.toFixed(3)}× (${Math.round(p.rps)} pairs/s)` });
}
if (pg?.list) bars.push({ label: `list by status, ${pg.list.rows.toLocaleString('en')} vs 10k rows, PostgreSQL`, value: pg.list.slowdown, target: 1.3, better: 'lower', text: `${pg.list.slowdown.toFixed(2)}× slower` });
if (pglite?.peakRssMb) bars.push({ label: 'server RSS under load, PGlite', value: pglite.peakRssMb, target: 300, better: 'lower', text: `${Math.round(pglite.peakRssMb)} MB` });
if (tti?.ratio) bars.push({ label: 'widget interactive vs static form, CPU ×4', value: tti.ratio, target: 1.5, better: 'lower', text: `${tti.ratio.toFixed(2)}×` });

const W = 920;
const labelW = 370;
const barW = 300;
const rowH = 26;
const top = 46;
const H = top + bars.length * rowH + 30;
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');
const dates = [pg, pglite, tti].filter(Boolean).map((r) => r.measuredAt?.slice(0, 10)).filter(Boolean);
let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif" font-size="12">
<rect width="100%" height="100%" fill="#fff"/>
<text x="10" y="20" font-size="14" font-weight="600">Issue 14 targets: measured (bar) against target (line), ${esc([...new Set(dates)].join(', '))}</text>
<text x="10" y="36" fill="#555">Bars scale so the target line sits at the same place in every row. Green: target met; red: missed.</text>
`;
bars.forEach((b, i) => {
  const y = top + i * rowH;
  // The target sits at 60 % of the bar's width; the bar is the measured value on that scale (capped at the full width).
  const scale = (barW * 0.6) / b.target;
  const len = Math.min(barW, b.value * scale);
  const met = b.better === 'higher' ? b.value >= b.target : b.value <= b.target;
  svg += `<text x="${labelW - 8}" y="${y + 16}" text-anchor="end">${esc(b.label)}</text>
<rect x="${labelW}" y="${y + 5}" width="${len.toFixed(1)}" height="15" fill="${met ? '#2e7d32' : '#c62828'}" opacity="0.85"/>
<line x1="${labelW + barW * 0.6}" x2="${labelW + barW * 0.6}" y1="${y + 2}" y2="${y + 23}" stroke="#000" stroke-width="2"/>
<text x="${labelW + barW + 8}" y="${y + 16}">${esc(b.text)} (${b.better === 'higher' ? '≥' : '≤'} ${b.target}${b.label.includes('RSS') ? ' MB' : '×'})</text>
`;
});
svg += '</svg>\n';
writeFileSync(new URL('./results.svg', import.meta.url), svg);
console.log(`bench/results.svg: ${bars.length} figures`);
