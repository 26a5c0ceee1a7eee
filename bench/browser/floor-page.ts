/**
 * The bench's paint floor: the app's quote rows (their HTML, copied from the app's page in
 * the same run) updated at the rate the app updated them, from cell strings computed before
 * the clock starts. No socket, no decoding, no store, no framework: the least any page
 * showing the same rows must spend. Built only by the bench; not part of the app.
 */

interface FloorCells {
  row: HTMLElement;
  time: HTMLElement | null;
  bid: HTMLElement | null;
  ask: HTMLElement | null;
  change: HTMLElement | null;
}

/** One update's strings, precomputed. */
interface FloorQuote {
  time: string;
  bid: string;
  ask: string;
  change: string;
  tone: string;
}

const variantsPerRow = 64;

function precompute(seed: number): FloorQuote[] {
  const quotes: FloorQuote[] = [];
  for (let index = 0; index < variantsPerRow; index += 1) {
    const base = 100 + ((seed * 7 + index * 13) % 900) / 10;
    const change = (((seed + index) % 21) - 10) / 10;
    const seconds = String((seed + index) % 60).padStart(2, '0');
    quotes.push({
      time: `12:34:${seconds}`,
      bid: base.toFixed(4),
      ask: (base + 0.0002).toFixed(4),
      change: `${change > 0 ? '+' : ''}${change.toFixed(2)}%`,
      tone: change > 0 ? 'up' : change < 0 ? 'down' : '',
    });
  }
  return quotes;
}

/**
 * Shows `html` (the app's quote list) and then, every `batchMs`, writes the next quote into
 * `updatesPerSecond × batchMs / 1000` rows in turn: the same cells and attributes the app's
 * rows write (text of time, bid, ask and change; `data-tone`, `data-updated`).
 */
function start(html: string, updatesPerSecond: number, batchMs: number) {
  const root = document.getElementById('root');
  if (!root) return;
  root.innerHTML = html;
  const cells: FloorCells[] = Array.from(root.querySelectorAll<HTMLElement>('.quote-row')).map((row) => {
    const [bid, ask] = Array.from(row.querySelectorAll<HTMLElement>('.quote-prices > span'));
    return { row, time: row.querySelector('.quote-time'), bid: bid ?? null, ask: ask ?? null, change: row.querySelector('.quote-change') };
  });
  if (cells.length === 0) return;
  const quotes = cells.map((_, index) => precompute(index));
  const perBatch = Math.max(1, Math.round((updatesPerSecond * batchMs) / 1000));
  let next = 0;
  let sequence = 0;
  let credit = 0;
  const paint = () => {
    credit += (updatesPerSecond * batchMs) / 1000;
    const count = Math.min(Math.floor(credit), perBatch * 2);
    credit -= count;
    for (let written = 0; written < count; written += 1) {
      const index = next % cells.length;
      next += 1;
      sequence += 1;
      const target = cells[index];
      const quote = quotes[index]?.[sequence % variantsPerRow];
      if (!target || !quote) continue;
      target.row.dataset.updated = String(sequence);
      target.row.dataset.tone = quote.tone;
      if (target.time) target.time.textContent = quote.time;
      if (target.bid) target.bid.textContent = quote.bid;
      if (target.ask) target.ask.textContent = quote.ask;
      if (target.change) target.change.textContent = quote.change;
    }
  };
  setInterval(paint, batchMs);
}

(window as unknown as { __floorStart: typeof start }).__floorStart = start;
