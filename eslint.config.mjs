import shellConfig from '@rancher/shell/eslint.config.base.mjs';

export default [
  ...shellConfig,
  { ignores: ['.tools/**', 'node_modules/**', 'dist/**', 'dist-pkg/**', 'test-results/**', 'playwright-report/**', 'bench/results/**'] },
];
