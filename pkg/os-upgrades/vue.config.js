const NodePolyfillPlugin = require('node-polyfill-webpack-plugin'); // eslint-disable-line @typescript-eslint/no-require-imports
const shellPkgConfig = require('./.shell/pkg/vue.config'); // eslint-disable-line @typescript-eslint/no-require-imports

const config = shellPkgConfig(__dirname);
const configureShellWebpack = config.configureWebpack;

// The shell's Node polyfills alias `console` to console-browserify in every module that logs,
// about 20 KB gzipped in the package's entry; the browser's own console is all this package needs.
config.configureWebpack = (webpackConfig) => {
  configureShellWebpack(webpackConfig);
  webpackConfig.plugins = webpackConfig.plugins.map((plugin) => (plugin instanceof NodePolyfillPlugin ? new NodePolyfillPlugin({ excludeAliases: ['console'] }) : plugin));
};

module.exports = config;
