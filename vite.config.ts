import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const packageJson = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
const appVersion = packageJson.version.split('.').slice(0, 2).join('.');
const buildId = `${appVersion}-${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;

/** Writes /version.json so that a running app can tell a newer deployment from its own. */
function versionFile(): Plugin {
  return {
    name: 'version-file',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version: appVersion, buildId }) });
    },
  };
}

export default defineConfig({
  plugins: [react(), versionFile()],
  define: {
    __APP_VERSION__: JSON.stringify(appVersion),
    __BUILD_ID__: JSON.stringify(buildId),
  },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  server: {
    proxy: {
      '/v1': 'http://localhost:8080',
      '/market': { target: 'http://localhost:8080', ws: true },
      '/exchange': { target: 'http://localhost:8080', ws: true },
      '/dev': 'http://localhost:8080',
    },
  },
});
