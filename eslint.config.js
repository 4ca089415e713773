import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import webLayers from './eslint/web-layers.js';
import apiLayers from './eslint/api-layers.js';

const ROOT = import.meta.dirname;

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '**/.data/**', 'api/scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // One direction of imports: the domain imports neither the api nor the web app.
    files: ['domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@meterline/api', '@meterline/web', '**/api/**', '**/web/**'],
              message: 'The domain package is pure: it imports neither api nor web.',
            },
            {
              group: ['node:*', 'fs', 'path', 'http', 'crypto', 'react', 'fastify', 'kysely', 'pg'],
              message: 'The domain package has no I/O and no framework.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@meterline/api', '**/api/src/**'],
              message: 'The web app never imports the api: types come through the domain schemas.',
            },
          ],
        },
      ],
    },
  },
  {
    // The web app's layers, one way: app/ → features → shared (eslint/web-layers.js).
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/**/*.test.{ts,tsx}'],
    plugins: { meterline: webLayers },
    rules: { 'meterline/web-layers': ['error', { srcRoot: `${ROOT}/web/src` }] },
  },
  {
    // The server's layers, one way: routes → services → adapters → repositories → db; plugins/ import
    // no service; route files run no SQL (eslint/api-layers.js).
    files: ['api/src/**/*.ts'],
    ignores: ['api/src/**/*.test.ts'],
    plugins: { 'meterline-api': apiLayers },
    rules: { 'meterline-api/api-layers': ['error', { srcRoot: `${ROOT}/api/src` }] },
  },
  {
    files: ['api/src/cli/**/*.ts', 'api/bench/**/*.ts', 'e2e/bench/**/*.ts', 'scripts/**/*.mjs'],
    rules: { 'no-console': 'off' },
  },
);
