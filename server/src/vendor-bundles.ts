// The build bundles a few libraries that would load as hundreds of small files into one file each
// (scripts/vendor-bundles.mjs, docs/quality.md P9), listed in dist/vendor/manifest.json. Imported
// first by main.ts, this module has Node resolve every import of such a package, ours or another
// library's, to its bundle. Where there is no manifest (tsx, the tests) nothing changes.
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

/** A bundle's files: the one `import` loads and the one `require` loads (the same for ES modules). */
interface Bundle {
  import: string;
  require: string;
}

const folder = new URL('./vendor/', import.meta.url);

function readManifest(): Map<string, Bundle> {
  try {
    const manifest = JSON.parse(readFileSync(new URL('manifest.json', folder), 'utf8')) as Record<string, Bundle>;
    return new Map(
      Object.entries(manifest).map(([name, files]) => [
        name,
        { import: new URL(files.import, folder).href, require: new URL(files.require, folder).href },
      ]),
    );
  } catch {
    return new Map();
  }
}

/** The build's own folder (server/dist/): its modules import each other by relative paths. */
const ownFolder = new URL('./', import.meta.url).href;

/**
 * `./x.js` or `../y/x.js` from one of the build's own modules: the file it names. Node's own
 * resolution of each of these checks the file (a `stat` and a `realpath`, ~5% of a start's CPU);
 * `tsc` wrote both files, so the URL alone is the answer (a missing one still fails, at its load).
 */
export function ownRelative(specifier: string, parentURL: string | undefined): string | undefined {
  if (parentURL?.startsWith(ownFolder) !== true || !specifier.endsWith('.js')) return undefined;
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const url = new URL(specifier, parentURL).href;
  return url.startsWith(ownFolder) ? url : undefined;
}

const bundles = readManifest();
if (bundles.size > 0) {
  registerHooks({
    resolve: (specifier, context, nextResolve) => {
      const own = ownRelative(specifier, context.parentURL);
      if (own !== undefined) return { url: own, shortCircuit: true };
      const bundle = bundles.get(specifier);
      if (bundle === undefined) return nextResolve(specifier, context);
      return { url: context.conditions.includes('require') ? bundle.require : bundle.import, shortCircuit: true };
    },
  });
}
