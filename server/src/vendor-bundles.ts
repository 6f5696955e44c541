// The build bundles a few libraries that would load as hundreds of small files into one file each
// (scripts/vendor-bundles.mjs, docs/quality.md P9), listed in dist/vendor/manifest.json. Imported
// first by main.ts, this module has Node resolve every import of such a package, ours or another
// library's, to its bundle. Where there is no manifest (tsx, the tests) nothing changes.
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const folder = new URL('./vendor/', import.meta.url);

function readManifest(): Map<string, string> {
  try {
    const manifest = JSON.parse(readFileSync(new URL('manifest.json', folder), 'utf8')) as Record<string, string>;
    return new Map(Object.entries(manifest).map(([name, file]) => [name, new URL(file, folder).href]));
  } catch {
    return new Map();
  }
}

const bundles = readManifest();
if (bundles.size > 0) {
  registerHooks({
    resolve: (specifier, context, nextResolve) => {
      const url = bundles.get(specifier);
      return url === undefined ? nextResolve(specifier, context) : { url, shortCircuit: true };
    },
  });
}
