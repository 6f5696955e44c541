import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `npm run dev` finds the API: the server's dev process (see server/package.json). */
const apiTarget = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/graphql': apiTarget,
      '/auth': apiTarget,
      '/webhooks': apiTarget,
      '/healthz': apiTarget,
      '/readyz': apiTarget,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    // Lists each route's chunks, so that tests can measure what a route loads (quality.md P7).
    manifest: true,
    // GraphiQL's editor (Monaco) is large by nature; it loads only on /playground.
    chunkSizeWarningLimit: 3000,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Every page needs React, the router and Apollo: one chunk compresses better than the
            // handful of shared chunks the bundler would otherwise cut them into.
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@apollo[\\/]client|rxjs|optimism|@wry[\\/][a-z]+|tslib)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
