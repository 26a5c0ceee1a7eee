import path from 'node:path';
import { build } from 'vite';

/** Builds the app together with the bench's baseline and floor pages (served at /bench/browser/baseline.html and floor.html). */
export async function buildBenchSite(outDir: string): Promise<void> {
  const root = process.cwd();
  await build({
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      rollupOptions: { input: { app: path.join(root, 'index.html'), baseline: path.join(root, 'bench/browser/baseline.html'), floor: path.join(root, 'bench/browser/floor.html') } },
    },
  });
}
