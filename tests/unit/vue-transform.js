// @vue/vue3-jest compiles <script setup> without telling the SFC compiler where TypeScript is, so
// the shell's components that import prop types fail to compile; registering it here fixes that.
const { registerTS } = require('@vue/compiler-sfc'); // eslint-disable-line @typescript-eslint/no-require-imports

registerTS(() => require('typescript')); // eslint-disable-line @typescript-eslint/no-require-imports

module.exports = require('@vue/vue3-jest'); // eslint-disable-line @typescript-eslint/no-require-imports
