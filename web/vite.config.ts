import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The API serves everything under /platform; in development Vite proxies it so the browser sees one
// origin, as in production. METERLINE_API_URL points the proxy at another instance.
const apiTarget = process.env.METERLINE_API_URL ?? 'http://127.0.0.1:8080';
const proxy = { '/platform': { target: apiTarget, changeOrigin: false } };

/**
 * The JavaScript every page loads before it can render (the entry chunk and everything it imports
 * statically), gzip-compressed. Issue 14, item 5 sets the budget of the billing page at 170 KB, and the
 * build fails above it. What keeps it there: pages other than billing are their own chunks; menus,
 * popovers, dialogs and tooltips load on intent (components/ui/on-intent, ui/tooltip); sonner loads with
 * the first toast (lib/toast); the router is wouter (lib/router); the shared schemas are zod/mini.
 */
export const INITIAL_JS_BUDGET_KB = 170;

function initialJsBudget(): Plugin {
  return {
    name: 'meterline-initial-js-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle).flatMap((item) =>
          item.type === 'chunk' ? [[item.fileName, item]] : [],
        ),
      );
      const initial = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = chunks.get(fileName);
        if (!chunk || initial.has(fileName)) return;
        initial.add(fileName);
        for (const imported of chunk.imports) visit(imported);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
      let bytes = 0;
      for (const fileName of initial) {
        bytes += gzipSync(chunks.get(fileName)?.code ?? '', { level: 9 }).length;
      }
      const kb = bytes / 1024;
      const summary = `initial JavaScript: ${kb.toFixed(1)} KB gzip in ${initial.size} files (budget ${INITIAL_JS_BUDGET_KB} KB)`;
      if (kb > INITIAL_JS_BUDGET_KB) this.error(`${summary}: over the budget`);
      this.info(summary);
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), initialJsBudget()],
  server: { proxy },
  preview: { proxy },
  build: {
    sourcemap: true,
    rollupOptions: {
      onwarn(warning, warn) {
        // Zod ships `@__PURE__` comments Rollup cannot place; harmless, and not ours to fix.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules/zod'))
          return;
        warn(warning);
      },
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        manualChunks(id) {
          // zod's jitless setting goes with zod itself: it runs before any chunk that parses can.
          if (id.includes('/src/lib/zod-jitless')) return 'zod';
          if (!id.includes('node_modules')) return undefined;
          // Loaded only when the card provider or hCaptcha is configured: their own lazy chunks.
          if (/node_modules\/(@stripe|@hcaptcha)\//.test(id)) return undefined;
          if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
          if (id.includes('node_modules/zod')) return 'zod';
          if (id.includes('node_modules/@tanstack')) return 'query';
          // The rest goes where it is used: a library only a dialog needs loads with that dialog.
          return undefined;
        },
      },
    },
  },
});
