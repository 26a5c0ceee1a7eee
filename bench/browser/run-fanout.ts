/** `tsx bench/browser/run-fanout.ts`: the browser fan-out bench alone (it is also part of `npm run bench`); environment in `fanoutOptionsFromEnv`. */
import { fanoutOptionsFromEnv, runTickFanoutBench } from './tick-fanout';

const sections = await runTickFanoutBench(fanoutOptionsFromEnv());
for (const section of sections) {
  process.stdout.write(`### ${section.title}\n\n| ${section.header.join(' | ')} |\n|${section.header.map(() => '---').join('|')}|\n`);
  for (const row of section.rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
  process.stdout.write('\n');
}
