// Type-checks each thread with its own lib (shared: none, worker: WebWorker, app: DOM,
// staff console: DOM, server: Node), so an import across the wrong boundary fails to compile.
import { spawnSync } from 'node:child_process';

const projects = ['src/shared', 'src/worker', 'src/app', 'src/staff', 'server', '.'];
let failed = 0;
for (const project of projects) {
  const result = spawnSync('node_modules/.bin/tsc', ['-p', project, '--pretty', 'false'], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
  else console.log(`typecheck ${project}: ok`);
}
process.exit(failed === 0 ? 0 : 1);
