import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import type { Plugin, UserConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

/**
 * Rules the server and the web share: `@rules/<name>` is server/src/rules/<name>.ts, a folder whose
 * files import nothing but each other (a lint rule), so the web bundles only those rules (the same
 * alias is in web/tsconfig.json and tests/tsconfig.json; vitest.config.ts takes this one).
 */
export const sharedRules = {
  find: /^@rules\/(.+)$/,
  replacement: `${fileURLToPath(new URL('../server/src/rules/', import.meta.url))}$1.ts`,
};

/** The most common passwords the sign-up meter knows (zxcvbn-ts ranks its list; all of it is 200 KB gzip). */
const METER_COMMON_PASSWORDS = 10_000;

/**
 * Words sorted and written with front coding: each line is how many leading characters (0–9) it
 * shares with the line before, then the rest (`3word`, `5s` after `words`…): a third smaller in
 * gzip than the plain list. `decodeFrontCoded` (web/src/ui/password/front-coding.ts) reads it.
 */
function frontCoded(words: Iterable<string>): string {
  let previous = '';
  const lines: string[] = [];
  for (const word of [...new Set(words)].sort()) {
    let shared = 0;
    while (shared < 9 && shared < previous.length && shared < word.length && previous[shared] === word[shared])
      shared++;
    lines.push(`${String(shared)}${word.slice(shared)}`);
    previous = word;
  }
  return lines.join('\n');
}

/**
 * `virtual:password-dictionaries`: the strength meter's word lists, cut at build time to what a
 * sign-up page can afford (~111 KB gzip with the estimator, instead of 850 KB for every list). The
 * estimator ranks the most common passwords; the rest of the server's blocklist (the longer words
 * of the whole list, password-rules.ts) comes front-coded, so that the meter refuses what the
 * server refuses.
 */
export function passwordDictionaries(): Plugin {
  const id = 'virtual:password-dictionaries';
  return {
    name: 'lampstand:password-dictionaries',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    async load(resolved) {
      if (resolved !== `\0${id}`) return undefined;
      const common = await import('@zxcvbn-ts/language-common');
      const english = await import('@zxcvbn-ts/language-en');
      const ranked = common.dictionary['passwords-common'];
      const lists = {
        commonPasswords: ranked.slice(0, METER_COMMON_PASSWORDS),
        // Shorter words are never on the blocklist (MIN_PASSWORD_LENGTH, password-rules.ts).
        moreBlockedPasswords: frontCoded(ranked.slice(METER_COMMON_PASSWORDS).filter((word) => word.length >= 8)),
        firstNames: english.dictionary['firstnames-en'],
        adjacencyGraphs: common.adjacencyGraphs,
        translations: english.translations,
      };
      return Object.entries(lists)
        .map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};`)
        .join('\n');
    },
  };
}

/**
 * `vite build` makes the production build whatever NODE_ENV the shell has: with
 * NODE_ENV=development it would bundle React's development build, which `npm start` would serve.
 */
function productionBuild(): Plugin {
  return {
    name: 'lampstand:production-build',
    config(_config, { command }) {
      if (command === 'build') process.env.NODE_ENV = 'production';
    },
  };
}

type OnWarn = NonNullable<NonNullable<NonNullable<UserConfig['build']>['rolldownOptions']>['onwarn']>;

/**
 * `"use no memo"` keeps a module out of the React Compiler, which this build does not run: bundling
 * loses nothing, so Rolldown's warning about it (in GraphiQL and react-compiler-runtime) is dropped.
 * Every other warning is shown.
 */
export const onwarn: OnWarn = (warning, warn) => {
  if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('"use no memo"')) return;
  warn(warning);
};

/** Where `npm run dev` finds the API: the server's dev process (see server/package.json). */
const apiTarget = 'http://127.0.0.1:3000';

/** The client build's settings; `vite build --ssr` takes `ssrBuild` instead (see below). */
const clientConfig: UserConfig = {
  // Brotli and gzip copies of every asset beside it, made once at build time: the server sends the
  // one the browser accepts (server/src/http/web.ts) and compresses nothing per request.
  plugins: [
    productionBuild(),
    react(),
    passwordDictionaries(),
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024, include: /\.(js|css|svg|json|txt)$/ }),
  ],
  resolve: {
    alias: [
      sharedRules,
      // The playground's editor without the VS Code features it never uses (see the file).
      {
        find: 'monaco-graphql/esm/monaco-editor.js',
        replacement: fileURLToPath(new URL('src/features/playground/monaco-slim.ts', import.meta.url)),
      },
    ],
  },
  server: {
    port: 5173,
    proxy: {
      '/graphql': apiTarget,
      '/auth': apiTarget,
      '/webhooks': apiTarget,
      '/healthz': apiTarget,
      '/readyz': apiTarget,
      '/api': apiTarget,
      '/p/': apiTarget,
      '/share/': apiTarget,
      // Served by the API, not the build (server/src/app/public-routes.ts).
      '/schema.graphql': apiTarget,
      '/robots.txt': apiTarget,
      '/sitemap': apiTarget,
      '/manifest.webmanifest': apiTarget,
      '/icon-': apiTarget,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The served build carries no source maps: they would publish the source to anyone who asks.
    sourcemap: false,
    target: 'es2022',
    // Lists each route's chunks, so that tests can measure what a route loads (quality.md P7).
    manifest: true,
    // GraphiQL's editor (Monaco) is large by nature; it loads only on /playground.
    chunkSizeWarningLimit: 3000,
    rolldownOptions: {
      onwarn,
      // The app, the home page as the server renders it, and the public page as a visitor's first
      // load gets it (server/src/http/web.ts).
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        home: fileURLToPath(new URL('home.html', import.meta.url)),
        profile: fileURLToPath(new URL('profile.html', import.meta.url)),
      },
      output: {
        codeSplitting: {
          groups: [
            // What the public page's and the home page's first loads share with the app (the stored
            // session they hand over on, the reader's translation and day, the time zone, a GET of
            // the API, the home page's hand-over, the last input's kind): one small chunk, not one request each.
            {
              name: 'page-basics',
              test: /[\\/]src[\\/](session[\\/]session|lib[\\/](translation-choice|time-zone|visitor-today|get-query|emailed-link)|features[\\/]landing[\\/]taken-over|ui[\\/]input-modality)\.ts$/,
            },
            // Every page needs React; the public page's first load needs none of it (profile.html).
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // The app's pages need the router and Apollo too: one chunk compresses better than the
            // handful of shared chunks the bundler would otherwise cut them into. Apollo's WebSocket
            // link stays with graphql-ws in the chunk the first subscription loads (session/live-link.ts).
            {
              name: 'vendor',
              test: /node_modules[\\/](react-router|@apollo[\\/]client(?![\\/]link[\\/]subscriptions)|rxjs|optimism|@wry[\\/][a-z]+|tslib)[\\/]/,
            },
          ],
        },
      },
    },
  },
};

/**
 * `vite build --ssr src/ssr.tsx` (`npm run build -w web`): the server's rendering of the home page,
 * into web/dist-ssr/, outside the folder the server serves. It carries its dependencies (React's
 * production build among them), so the server needs nothing of web/node_modules; the pages it never
 * renders stay in chunks of their own, which are never loaded.
 */
const ssrBuild: UserConfig = {
  plugins: [productionBuild(), react(), passwordDictionaries()],
  resolve: { alias: [sharedRules] },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  ssr: { noExternal: true, target: 'node' },
  build: {
    outDir: 'dist-ssr',
    emptyOutDir: true,
    sourcemap: false,
    target: 'node22',
    copyPublicDir: false,
    rolldownOptions: { onwarn, output: { entryFileNames: '[name].js' } },
  },
};

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? ssrBuild : clientConfig));
