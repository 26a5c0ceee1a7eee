/** `tsx bench/browser/run-scroll.ts`: the quotation scroll bench alone (also part of `npm run bench`). */
import { runQuoteScrollBench } from './quote-scroll';

for (const section of await runQuoteScrollBench()) {
  process.stdout.write(`### ${section.title}\n\n| ${section.header.join(' | ')} |\n|${section.header.map(() => '---').join('|')}|\n`);
  for (const row of section.rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
}
