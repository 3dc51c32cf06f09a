const NodePolyfillPlugin = require('node-polyfill-webpack-plugin'); // eslint-disable-line @typescript-eslint/no-require-imports
const shellPkgConfig = require('./.shell/pkg/vue.config'); // eslint-disable-line @typescript-eslint/no-require-imports

const config = shellPkgConfig(__dirname);
const configureShellWebpack = config.configureWebpack;

// The shell's Node polyfills alias `console` to console-browserify in every module that logs,
// about 20 KB gzipped in the package's entry; the browser's own console is all this package needs.
config.configureWebpack = (webpackConfig) => {
  configureShellWebpack(webpackConfig);
  webpackConfig.plugins = webpackConfig.plugins.map((plugin) => (plugin instanceof NodePolyfillPlugin ? new NodePolyfillPlugin({ excludeAliases: ['console'] }) : plugin));
  // The shell's components import `{ debounce }` and `{ sum }` from 'lodash', whose CommonJS build
  // cannot be tree-shaken: all of lodash (25 kB gzipped) came with every page. lodash-es is the
  // same functions as ES modules (`lodash/cloneDeep` too), so only the ones imported are bundled,
  // sharing their internals.
  webpackConfig.resolve.alias = { ...webpackConfig.resolve.alias, lodash: 'lodash-es' };
  // The domain is pure (pkg/os-upgrades/domain/README.md): a page gets the rules it imports from
  // domain/index.ts, not every module the index re-exports.
  webpackConfig.module.rules.push({ test: /[\\/]os-upgrades[\\/]domain[\\/].*\.ts$/, sideEffects: false });
};

module.exports = config;
