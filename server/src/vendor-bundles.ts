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

const bundles = readManifest();
if (bundles.size > 0) {
  registerHooks({
    resolve: (specifier, context, nextResolve) => {
      const bundle = bundles.get(specifier);
      if (bundle === undefined) return nextResolve(specifier, context);
      return { url: context.conditions.includes('require') ? bundle.require : bundle.import, shortCircuit: true };
    },
  });
}
