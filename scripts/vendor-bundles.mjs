// Runs after the server's `tsc` (server/package.json's build): the libraries a start loads in
// hundreds of small files are bundled, each into one file of server/dist/vendor/, and
// server/dist/vendor/manifest.json names them; server/src/vendor-bundles.ts, the first module
// main.ts imports, has Node resolve those packages to their bundles. A start spends most of its time
// resolving, reading and compiling files, not running them (docs/quality.md P9).
//
// Each bundle keeps its package's own format: CommonJS stays CommonJS (sloppy mode, as published),
// with no renaming (no keepNames helper, no minifying of names or syntax). Only whitespace goes: V8
// keeps every module's text for as long as the process runs (5 MB less heap), and a text with one
// character past Latin-1 in it takes two bytes for each of its characters: what esbuild leaves
// outside ASCII (in regular expressions) is written as `\u` escapes. Only the package and
// the few libraries it alone uses are inside; every other import stays a normal import, so shared
// packages (graphql, reflect-metadata, native addons) keep one instance.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../server');
/** Where the bundles go: server/dist/vendor/, or the folder given as the first argument. */
const out = path.resolve(process.argv[2] ?? path.join(server, 'dist/vendor'));
const require = createRequire(path.join(server, 'package.json'));

/**
 * The packages bundled, each with the libraries only it uses inlined beside it, in the format Node
 * loads them in now: CommonJS when they are required or publish only CommonJS, ESM when every
 * importer imports their ESM build.
 */
const BUNDLES = [
  {
    name: 'typeorm',
    inline: [
      '@sqltools/formatter',
      'ansis',
      'dayjs',
      'debug',
      'ms',
      'dedent',
      'sql-highlight',
      'tinyglobby',
      'fdir',
      'picomatch',
      'tslib',
    ],
  },
  { name: 'class-validator', inline: ['validator', 'libphonenumber-js'] },
  { name: 'type-graphql', inline: ['graphql-query-complexity', 'tslib'] },
  { name: '@supabase/auth-js', inline: ['tslib'] },
  { name: 'semver' },
  { name: '@opentelemetry/api' },
  { name: 'rate-limiter-flexible' },
  { name: 'prom-client', inline: ['tdigest', 'bintrees'] },
  { name: 'zod', esm: true },
  { name: 'jose', esm: true },
  { name: 'graphql-scalars', esm: true, inline: ['tslib'] },
  { name: '@graphql-tools/utils', esm: true, inline: ['cross-inspect', '@whatwg-node/promise-helpers', 'tslib'] },
  { name: '@graphql-tools/merge', esm: true, inline: ['tslib'] },
  { name: '@graphql-tools/schema', esm: true, inline: ['tslib'] },
];

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * `code` in ASCII alone: every other UTF-16 unit as a `\u` escape, which means the same character
 * in a string, a regular expression (with the `u` flag too: a pair of escaped surrogates is one
 * code point) or an identifier. A character escaped for itself (`\é`, an odd run of backslashes
 * before it) loses that backslash to the escape. Not for template literals' raw text, which the
 * bundles have none of outside ASCII.
 */
const asciiOnly = (code) =>
  code.replace(/(\\*)([\u0080-\uffff])/g, (_, slashes, char) => {
    const escaped = `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
    return slashes.length % 2 === 1 ? slashes.slice(1) + escaped : slashes + escaped;
  });

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const manifest = {};
for (const { name, inline = [], esm = false } of BUNDLES) {
  const inside = new Set([name, ...inline]);
  const file = `${name.replace('/', '+')}.${esm ? 'mjs' : 'cjs'}`;
  const entry = esm ? fileURLToPath(import.meta.resolve(name)) : require.resolve(name);
  await build({
    entryPoints: [entry],
    outfile: path.join(out, file),
    bundle: true,
    format: esm ? 'esm' : 'cjs',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
    minifyWhitespace: true,
    plugins: [
      {
        name: 'outside',
        setup(context) {
          context.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('node:') || !inside.has(packageName(args.path))
              ? { path: args.path, external: true }
              : undefined,
          );
        },
      },
    ],
  });
  const bundle = path.join(out, file);
  writeFileSync(bundle, asciiOnly(readFileSync(bundle, 'utf8')));
  if (esm) {
    manifest[name] = { import: file, require: file };
    continue;
  }
  // An ES module importing CommonJS has Node scan the whole file for the names it exports (a
  // bundle of megabytes, at every start): ES importers get a small module instead, which requires
  // the bundle and names its exports.
  const names = Object.keys(require(path.join(out, file))).filter(
    (key) => key !== 'default' && /^[A-Za-z_$][\w$]*$/.test(key),
  );
  const shim = file.replace(/\.cjs$/, '.mjs');
  writeFileSync(
    path.join(out, shim),
    [
      "import { createRequire as __createRequire } from 'node:module';",
      `const __bundle = __createRequire(import.meta.url)('./${file}');`,
      'export default __bundle;',
      `export const { ${names.join(', ')} } = __bundle;`,
      '',
    ].join('\n'),
  );
  manifest[name] = { import: shim, require: file };
}
writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
