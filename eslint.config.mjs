// ESLint (flat config): the recommended JavaScript and typescript-eslint rules over the TypeScript
// sources, tests and scripts. Formatting is Prettier's (.prettierrc.json), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const node = Object.fromEntries(
  ['console', 'process', 'Buffer', 'URL', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance',
    'structuredClone', 'TextEncoder', 'TextDecoder', 'AbortController', 'queueMicrotask'].map((g) => [g, 'readonly']));
const browser = Object.fromEntries(
  ['window', 'document', 'getComputedStyle', 'requestAnimationFrame', 'HTMLElement', 'HTMLCanvasElement', 'HTMLImageElement',
    'Image', 'MessageEvent', 'KeyboardEvent', 'PointerEvent', 'acquireVsCodeApi', 'navigator', 'location'].map((g) => [g, 'readonly']));

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'e2e-artifacts/**', 'scratch/**', 'models/**', 'training/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...node, ...browser } },
    rules: {
      // errors are re-thrown as the tool's own (ImageInputError, ModelLoadError, ...) whose message
      // already names the file and the cause
      'preserve-caught-error': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // the caption grammar lists its variants as comma-joined calls: add(a), add(b)
    files: ['src/data/captions.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    // tests read JSON of many shapes
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
