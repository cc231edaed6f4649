// eslint.config.mjs - ESLint's rules for the project's JavaScript: the web
// page (web/, browser modules), the tests and the benchmark drivers (Node
// modules; browser tests also hold code that runs in the page). `make lint`
// runs it from the checkout's root: npx --prefix tests eslint -c tests/eslint.config.mjs.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['**/node_modules/**', 'tests/out/**', 'bench/peers/**', 'bench/out/**'] },
  js.configs.recommended,
  // `const { hidden, ...rest } = x` leaves out what it names on purpose.
  { rules: { 'no-unused-vars': ['error', { ignoreRestSiblings: true }] } },
  {
    files: ['web/**/*.js', 'tests/plugin/*/web/**/*.js'],
    languageOptions: { sourceType: 'module', globals: globals.browser },
  },
  {
    files: ['tests/**/*.mjs', 'bench/**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
  },
];
