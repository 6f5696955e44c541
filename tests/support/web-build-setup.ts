// Global setup of the e2e project: a production build of the web app, made as `npm run build -w web`
// makes it (separate processes), into a temporary folder the app serves: `dist/` and, beside it as
// the server expects, `dist-ssr/` (the server's rendering of the home page).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

export function setup(project: TestProject): () => void {
  const buildDir = mkdtempSync(path.join(tmpdir(), 'lampstand-web-'));
  const outDir = path.join(buildDir, 'dist');
  const webRoot = path.resolve(import.meta.dirname, '../../web');
  const vitePackage = createRequire(path.join(webRoot, 'package.json')).resolve('vite/package.json');
  const vite = path.join(path.dirname(vitePackage), 'bin', 'vite.js');
  const builds = [
    ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    [
      'build',
      '--ssr',
      'src/ssr.tsx',
      '--outDir',
      path.join(buildDir, 'dist-ssr'),
      '--emptyOutDir',
      '--logLevel',
      'error',
    ],
  ];
  for (const args of builds) {
    const result = spawnSync(process.execPath, [vite, ...args], {
      cwd: webRoot,
      // As a shell set up for development would: the build must be the production one anyway
      // (web/vite.config.ts), which the bundle-size ceilings would catch.
      env: { ...process.env, NODE_ENV: 'development' },
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`The web build failed:\n${result.stdout}\n${result.stderr}`);
  }
  project.provide('webDistDir', outDir);
  return () => {
    rmSync(buildDir, { recursive: true, force: true });
  };
}
