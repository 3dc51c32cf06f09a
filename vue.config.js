const config = require('@rancher/shell/vue.config'); // eslint-disable-line @typescript-eslint/no-require-imports
const { api, proxyOpts } = require('@rancher/shell/vue-config-helper'); // eslint-disable-line @typescript-eslint/no-require-imports

// EXCLUDES=os-upgrades builds the dashboard without the package, so it can be loaded as Rancher loads it (uiplugins).
const excludes = (process.env.EXCLUDES || '').split(',').filter(Boolean);

const appConfig = config(__dirname, {
  excludes,
  // The Elemental operator's changelog endpoint lives on the Rancher server itself.
  proxy: { '/elemental': proxyOpts(api) }
});

// DEV_PORT lets several dev servers run side by side; the shell fixes 8005.
if (process.env.DEV_PORT && appConfig.devServer) {
  appConfig.devServer.port = Number(process.env.DEV_PORT);
  appConfig.devServer.client.webSocketURL.port = Number(process.env.DEV_PORT);
}

// No progress-webpack-plugin (@vue/cli-service serve adds it unless client.progress is false): piped
// to a terminal it prints every frame, thousands of "[10%] building" lines per compile.
if (appConfig.devServer?.client) {
  appConfig.devServer.client.progress = false;
}

module.exports = appConfig;
