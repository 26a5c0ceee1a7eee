/** `tsx bench/browser/run-fanout.ts`: the browser fan-out bench alone (it is also part of `npm run bench`). */
import { defaultFanoutOptions, runTickFanoutBench } from './tick-fanout';

const sections = await runTickFanoutBench({
  ...defaultFanoutOptions,
  ...(process.env.BENCH_MEASURE_MS ? { measureMs: Number(process.env.BENCH_MEASURE_MS) } : {}),
  ...(process.env.BENCH_FANOUT_PORT ? { port: Number(process.env.BENCH_FANOUT_PORT) } : {}),
  ...(process.env.BENCH_TABS ? { tabCounts: process.env.BENCH_TABS.split(',').map(Number) } : {}),
});
for (const section of sections) {
  process.stdout.write(`### ${section.title}\n\n| ${section.header.join(' | ')} |\n|${section.header.map(() => '---').join('|')}|\n`);
  for (const row of section.rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
  process.stdout.write('\n');
}
