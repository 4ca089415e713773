import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The API serves everything under /platform; in development Vite proxies it so the browser sees one
// origin, as in production. METERLINE_API_URL points the proxy at another instance.
const apiTarget = process.env.METERLINE_API_URL ?? 'http://127.0.0.1:8080';
const proxy = { '/platform': { target: apiTarget, changeOrigin: false } };

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
          if (!id.includes('node_modules')) return undefined;
          // Loaded only when the card provider or hCaptcha is configured: their own lazy chunks.
          if (/node_modules\/(@stripe|@hcaptcha)\//.test(id)) return undefined;
          if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
          if (id.includes('node_modules/react-router')) return 'router';
          if (id.includes('node_modules/zod')) return 'zod';
          if (id.includes('node_modules/@tanstack')) return 'query';
          if (/node_modules\/(@radix-ui|@floating-ui|radix-ui)/.test(id)) return 'radix';
          return 'vendor';
        },
      },
    },
  },
});
