// Type-checks each thread with its own lib (shared: none, worker: WebWorker, app: DOM,
// staff console: DOM, server: Node), so an import across the wrong boundary fails to compile.
// The projects are independent: they run side by side, one per core (tsc uses one thread).
import { spawn } from 'node:child_process';
import os from 'node:os';

const projects = ['.', 'server', 'src/app', 'src/staff', 'src/worker', 'src/shared'];
const concurrency = Math.max(1, Math.min(projects.length, os.availableParallelism()));

function check(project) {
  return new Promise((resolve) => {
    const child = spawn('node_modules/.bin/tsc', ['-p', project, '--pretty', 'false'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => {
      // Each project's errors print together, not interleaved with another's.
      process.stdout.write(status === 0 ? `typecheck ${project}: ok\n` : `${output}typecheck ${project}: FAILED\n`);
      resolve(status === 0);
    });
  });
}

const pending = [...projects];
let failed = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    for (let project = pending.shift(); project !== undefined; project = pending.shift()) {
      if (!(await check(project))) failed += 1;
    }
  }),
);
process.exit(failed === 0 ? 0 : 1);
