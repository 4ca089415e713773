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
  build: { sourcemap: true },
});
