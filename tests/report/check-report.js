#!/usr/bin/env node
// Renders a tilec --emit=report page in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core) and checks it the way a reader sees it:
//   - every <section> renders: a screenshot of it is wider than 600 and taller than 60
//     CSS pixels, and not blank (more than 1% of its pixels differ from the background,
//     and it has more than a few colours);
//   - the page fetches nothing (every request is the file itself or a data: URL);
//   - the SVG agrees with the numbers: each memory chart has one bar group per buffer
//     row of its table, and its peak is the sum of the buffers live at the peak; each
//     store and load has one window box; each blocks figure has one group per block its
//     table lists, drawing the windows the table gives; --expect NAME=N checks a count
//     given by the caller (stores, loads, cells, transfers: counted from the compiler's IR
//     or output);
//   - the page speaks in source terms: no visible text or tooltip outside the source listing
//     holds an IR name (`%acc_4`), nor a name of --ir-names FILE (one a line: the final IR's
//     value names the source does not have and that hold a `_`, such as a copy's `kt_1` or a
//     pass's `qt_left`); every link within the page reaches an element that exists; every
//     figure of the report's own sections (memory, loads and stores, accumulators, blocks,
//     timeline) links to a source line, and so does every row of their tables that names
//     a value or an op.
// One browser checks every report given: each REPORT.html is followed by its own options.
// usage: check-report.js REPORT.html [--shots DIR] [--expect NAME=N ...] [--page-shot FILE] [--ir-names FILE]
//        [REPORT.html ...]
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require(path.join(__dirname, '../npm/node_modules/playwright-core'));
const { PNG } = require(path.join(__dirname, '../npm/node_modules/pngjs'));

const jobs = [];
for (const args = process.argv.slice(2); args.length;) {
  const a = args.shift();
  const job = jobs[jobs.length - 1];
  if (!a.startsWith('--')) jobs.push({ report: path.resolve(a), shots: null, pageShot: null, expect: {}, irNames: [] });
  else if (!job) { console.error('check-report: options follow the report they are for'); process.exit(2); }
  else if (a === '--shots') job.shots = args.shift();
  else if (a === '--page-shot') job.pageShot = args.shift();
  else if (a === '--ir-names') job.irNames = fs.readFileSync(args.shift(), 'utf8').split('\n').filter((n) => n);
  else if (a === '--expect') { const [k, v] = args.shift().split('='); job.expect[k] = Number(v); }
  else { console.error(`check-report: unknown argument ${a}`); process.exit(2); }
}

const failures = [];
let current = '';
const fail = (what) => failures.push(`${current}: ${what}`);

function blankness(png) {
  const { width, height, data } = PNG.sync.read(png);
  const bg = [data[0], data[1], data[2]];
  let differ = 0;
  const colours = new Set();
  for (let i = 0; i < width * height * 4; i += 4) {
    const r = data[i], g = data[i + 1], b = data[i + 2];
    if (Math.abs(r - bg[0]) + Math.abs(g - bg[1]) + Math.abs(b - bg[2]) > 24) differ++;
    if (colours.size < 64) colours.add((r << 16) | (g << 8) | b);
  }
  return { width, height, inked: differ / (width * height), colours: colours.size };
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  try {
    for (const job of jobs) {
      current = path.basename(job.report);
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
      const url = 'file://' + job.report;
      page.on('request', (r) => { if (r.url() !== url && !r.url().startsWith('data:')) fail(`the page fetched ${r.url()}`); });
      page.on('pageerror', (e) => fail(`page error: ${e.message}`));
      await page.goto(url, { waitUntil: 'load' });
      if (job.pageShot) await page.screenshot({ path: job.pageShot, clip: { x: 0, y: 0, width: 1200, height: 900 } });

      const sections = await page.$$('section.report-section');
      if (sections.length === 0) fail('the page has no section');
      if (job.shots) fs.mkdirSync(job.shots, { recursive: true });
      for (const s of sections) {
        const id = await s.getAttribute('id');
        const png = await s.screenshot();
        if (job.shots) fs.writeFileSync(path.join(job.shots, `${id}.png`), png);
        const b = blankness(png);
        if (b.width < 600 || b.height < 60) fail(`section ${id} renders ${b.width}x${b.height}, smaller than 600x60`);
        if (b.inked < 0.01 || b.colours < 4) fail(`section ${id} looks blank (${(b.inked * 100).toFixed(2)}% inked, ${b.colours} colours)`);
      }

      const structure = await page.evaluate((irNames) => {
        const out = { problems: [], counts: {} };
        // What a reader sees or hovers, outside the listing of the source itself.
        const texts = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode())
          if (!n.parentElement.closest('.listing, style')) texts.push(n.textContent);
        const visible = texts.join('\n');
        const irName = visible.match(/%[A-Za-z_][A-Za-z0-9_]*/);
        if (irName) out.problems.push(`an IR name in the text: ${irName[0]}`);
        const words = new Set(visible.match(/[A-Za-z_][A-Za-z0-9_]*/g) || []);
        for (const n of irNames) if (words.has(n)) out.problems.push(`a name only the IR has in the text: ${n}`);
        for (const a of document.querySelectorAll('a[href^="#"]'))
          if (!document.getElementById(a.getAttribute('href').slice(1))) out.problems.push(`a link to a missing ${a.getAttribute('href')}`);
        const linksSource = (e) => e && e.querySelector('a[href^="#src-"]');
        for (const fig of document.querySelectorAll('figure.memory-figure, figure.access, figure.accumulator, figure.blocks-figure, figure.timeline-figure'))
          if (!linksSource(fig.querySelector('figcaption'))) out.problems.push(`a ${fig.className} figure without a link to its source`);
        for (const row of document.querySelectorAll('table.buffers tr, table.access-table tr, table.pages tr, table.pipe-ops tr'))
          if (row.querySelector('td') && !linksSource(row)) out.problems.push(`a ${row.closest('table').className} row without a link to its source: ${row.textContent.slice(0, 80)}`);
        const count = (k, n) => { out.counts[k] = (out.counts[k] || 0) + n; };
        for (const chart of document.querySelectorAll('g.memory-chart')) {
          const figure = chart.closest('figure');
          let table = figure.nextElementSibling;
          const bars = chart.querySelectorAll('g.buffer');
          const rows = table ? table.querySelectorAll('tr').length - 1 : -1;
          if (bars.length !== rows) out.problems.push(`memory chart ${chart.dataset.space}: ${bars.length} bars for ${rows} buffers`);
          let atPeak = 0;
          const byId = {};
          for (const g of bars) {
            byId[g.dataset.buffer] = Number(g.dataset.bytes);
            if (g.querySelectorAll('rect').length === 0) out.problems.push(`buffer ${g.dataset.buffer} has no bar`);
          }
          for (const tr of Array.from(table.querySelectorAll('tr')).slice(1)) {
            const cells = tr.querySelectorAll('td');
            if (cells[4].textContent === 'yes') atPeak += byId[cells[0].textContent];
          }
          if (atPeak !== Number(chart.dataset.peakBytes))
            out.problems.push(`memory chart ${chart.dataset.space}: peak ${chart.dataset.peakBytes} but the buffers live there hold ${atPeak}`);
          count('buffers', bars.length);
        }
        for (const fig of document.querySelectorAll('figure.access')) {
          const boxes = fig.querySelectorAll('g.window-box');
          if (boxes.length !== 1) out.problems.push(`an access figure has ${boxes.length} window boxes`);
          for (const b of boxes) count(b.dataset.op + 's', 1);
        }
        for (const t of document.querySelectorAll('table.access-table')) {
          const drawn = t.closest('section').querySelectorAll('figure.access').length;
          if (drawn < Math.min(64, t.querySelectorAll('tr').length - 1)) out.problems.push('an access is listed but not drawn');
        }
        // A blocks figure draws one group per block its table lists (a gap row has one cell),
        // each with the windows of the table's last column (stores, or loads when none).
        for (const fig of document.querySelectorAll('figure.blocks-figure')) {
          const table = fig.nextElementSibling;
          const rows = Array.from(table.querySelectorAll('tr')).slice(1).filter((tr) => tr.cells.length > 1);
          const groups = fig.querySelectorAll('g.block-window');
          if (groups.length !== rows.length) out.problems.push(`a blocks figure draws ${groups.length} blocks for ${rows.length} rows`);
          groups.forEach((g, i) => {
            const cell = rows[i] && rows[i].cells[rows[i].cells.length - 1];
            const listed = cell ? Array.from(cell.querySelectorAll('code')).map((c) => c.textContent).join('; ') : '?';
            if (g.dataset.window !== listed) out.problems.push(`block ${g.dataset.unit} draws ${g.dataset.window} but its row lists ${listed}`);
            if (listed !== '' && g.querySelectorAll('rect').length === 0) out.problems.push(`block ${g.dataset.unit} has no box`);
          });
          count('blockwindows', groups.length);
        }
        count('cells', document.querySelectorAll('g.cell-box').length);
        count('transfers', document.querySelectorAll('g.transfer').length);
        count('pages', document.querySelectorAll('g.pages').length);
        for (const svg of document.querySelectorAll('figure svg')) {
          if (!svg.querySelector(':scope > title')) out.problems.push('a figure without a title');
        }
        return out;
      }, job.irNames);
      structure.problems.forEach(fail);
      for (const [k, n] of Object.entries(job.expect)) {
        const got = structure.counts[k] || 0;
        if (got !== n) fail(`expected ${n} ${k}, the page draws ${got}`);
      }
      console.log(`${path.basename(job.report)}: ${sections.length} sections, counts ${JSON.stringify(structure.counts)}`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  if (failures.length) {
    for (const f of failures) console.error(`check-report: ${f}`);
    process.exit(1);
  }
})().catch((e) => { console.error(`check-report: ${e.stack || e}`); process.exit(1); });
