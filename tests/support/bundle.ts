import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One chunk of Vite's build manifest (`build.manifest: true`). */
interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

type Manifest = Record<string, ManifestChunk>;

export interface RouteScripts {
  /** The JavaScript files the browser downloads to show the route, in no particular order. */
  files: string[];
  /** Their total size compressed with gzip at level 9, as Vite reports it, in bytes. */
  gzipBytes: number;
}

function readManifest(distDir: string): Manifest {
  return JSON.parse(readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/**
 * The scripts a route loads: the page's entry (`index.html`, the app, unless given) and the route's
 * own module, each with every chunk it imports statically. `modules` are source paths relative to
 * web/, e.g. `src/features/profile/ProfilePage.tsx`. Dynamic imports made later (another route, the
 * consent banner) are not counted unless listed.
 */
export function routeScripts(distDir: string, modules: string[], page = 'index.html'): RouteScripts {
  const manifest = readManifest(distDir);
  const entry = Object.keys(manifest).find((key) => key === page && manifest[key]?.isEntry);
  if (!entry) throw new Error(`the build manifest has no entry ${page}`);
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the build manifest has no chunk for ${key}`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entry);
  for (const module of modules) visit(module);
  const scripts = [...files].filter((file) => file.endsWith('.js'));
  const gzipBytes = scripts.reduce(
    (total, file) => total + gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length,
    0,
  );
  return { files: scripts, gzipBytes };
}
