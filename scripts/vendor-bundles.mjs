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
  // Fastify and the packages only it loads (its router, plugin loader, `inject`): ~90 files.
  // `@fastify/error` and `fastq` stay outside: @fastify/static shares them (errors are checked by class).
  {
    name: 'fastify',
    inline: [
      'avvio',
      'find-my-way',
      'fast-querystring',
      'fast-decode-uri-component',
      'safe-regex2',
      'ret',
      'toad-cache',
      'secure-json-parse',
      'process-warning',
      '@fastify/proxy-addr',
      '@fastify/forwarded',
      'ipaddr.js',
      'abstract-logging',
      'light-my-request',
      '@fastify/deepmerge',
      'cookie',
      'set-cookie-parser',
    ],
  },
  // The JSON schema compilers Fastify and graphql-jit load, with ajv (85 files) inside: one bundle
  // for the four packages, as three of them share ajv, which must stay one copy.
  {
    name: 'fast-json-stringify',
    entries: ['fast-json-stringify/lib/serializer', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler'],
    inline: [
      'ajv',
      'ajv-formats',
      'fast-uri',
      'json-schema-traverse',
      'fast-deep-equal',
      '@fastify/merge-json-schemas',
      'json-schema-ref-resolver',
      'dequal',
      'rfdc',
    ],
  },
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
/** A module that requires the bundle's `file` and names the exports of `exported` (Node need not scan the bundle). */
function esmShim(file, exported, key) {
  const names = Object.keys(exported).filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name));
  const taken = key === undefined ? '' : `[${JSON.stringify(key)}]`;
  return [
    "import { createRequire as __createRequire } from 'node:module';",
    `const __bundle = __createRequire(import.meta.url)('./${file}')${taken};`,
    'export default __bundle;',
    `export const { ${names.join(', ')} } = __bundle;`,
    '',
  ].join('\n');
}

for (const { name, inline = [], esm = false, entries = [] } of BUNDLES) {
  const inside = new Set([name, ...entries.map(packageName), ...inline]);
  // A bundle of several entries is named apart from its entries' own small files.
  const file = `${name.replace('/', '+')}${entries.length > 0 ? '.entries' : ''}.${esm ? 'mjs' : 'cjs'}`;
  const bundle = path.join(out, file);
  // Several entries share one bundle whose exports are keyed by specifier: each has a small file of
  // its own that takes its part, so that every importer gets the one copy of what they share.
  const specifiers = [name, ...entries];
  const source =
    entries.length === 0
      ? { entryPoints: [esm ? fileURLToPath(import.meta.resolve(name)) : require.resolve(name)] }
      : {
          stdin: {
            contents: `module.exports = {${specifiers.map((specifier) => `${JSON.stringify(specifier)}: require(${JSON.stringify(specifier)})`).join(', ')}};`,
            resolveDir: server,
            sourcefile: `${name}-entries.cjs`,
          },
        };
  await build({
    ...source,
    outfile: bundle,
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
  writeFileSync(bundle, asciiOnly(readFileSync(bundle, 'utf8')));
  if (esm) {
    manifest[name] = { import: file, require: file };
    continue;
  }
  const exported = require(bundle);
  if (entries.length === 0) {
    // An ES module importing CommonJS has Node scan the whole file for the names it exports (a
    // bundle of megabytes, at every start): ES importers get a small module instead, which requires
    // the bundle and names its exports.
    const shim = file.replace(/\.cjs$/, '.mjs');
    writeFileSync(path.join(out, shim), esmShim(file, exported));
    manifest[name] = { import: shim, require: file };
    continue;
  }
  for (const specifier of specifiers) {
    const base = specifier.replaceAll('/', '+');
    writeFileSync(
      path.join(out, `${base}.cjs`),
      `module.exports = require('./${file}')[${JSON.stringify(specifier)}];\n`,
    );
    writeFileSync(path.join(out, `${base}.mjs`), esmShim(file, exported[specifier], specifier));
    manifest[specifier] = { import: `${base}.mjs`, require: `${base}.cjs` };
  }
}
writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
