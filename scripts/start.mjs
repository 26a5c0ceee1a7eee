// `npm start`: builds the app, then runs the reference server that serves it on
// http://localhost:8080 (PORT) with embedded PGlite under ./data (DATA_DIR).
import { spawn, spawnSync } from 'node:child_process';

const build = spawnSync('node_modules/.bin/vite', ['build', '--logLevel', 'warn'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const server = spawn('node_modules/.bin/tsx', ['server/main.ts'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
