const shellConfig = require('@rancher/shell/babel.config.js');

// Jest compiles TypeScript and modern syntax for the running Node; the dashboard build keeps the shell's config.
module.exports = function(api) {
  if (api.env('test')) {
    api.cache(true);

    return {
      presets: [
        ['@babel/preset-env', { targets: { node: 'current' } }],
        '@babel/preset-typescript'
      ]
    };
  }

  return shellConfig(api);
};
