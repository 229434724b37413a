import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The API serves the built dashboard at `/`; in development `npm run dev -w apps/web`
// proxies API calls to a server on :3000.
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  // `@sextant/contracts/<module>` is one module's source (pure helpers shared with the CLI),
  // not the package's CommonJS build with every schema and zod in it.
  resolve: { alias: [{ find: /^@sextant\/contracts\/(.+)$/, replacement: fileURLToPath(new URL('../../libs/contracts/src/$1', import.meta.url)) }] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      onwarn(warning, warn) {
        // TanStack Query ships "use client" directives (meaningless outside React Server Components).
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || (warning.code === 'SOURCEMAP_ERROR' && /use client|node_modules/.test(`${warning.message} ${warning.id ?? ''}`))) return;
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/v1': 'http://127.0.0.1:3000',
      '/health': 'http://127.0.0.1:3000',
      '/docs': 'http://127.0.0.1:3000',
      '/socket.io': { target: 'ws://127.0.0.1:3000', ws: true },
    },
  },
});
