const config = require('@rancher/shell/vue.config'); // eslint-disable-line @typescript-eslint/no-require-imports
const { api, proxyOpts } = require('@rancher/shell/vue-config-helper'); // eslint-disable-line @typescript-eslint/no-require-imports

// EXCLUDES=os-upgrades builds the dashboard without the package, so it can be loaded as Rancher loads it (uiplugins).
const excludes = (process.env.EXCLUDES || '').split(',').filter(Boolean);

// The paths the extension reads on the dashboard's own origin besides those the shell proxies
// (/v1, /v3, /k8s, /api, /apis, /meta, /v1-public…): the Elemental operator's changelog endpoint on
// the Rancher server, and the emulator's changelog file host (tests/emulator/data/changelog-files.ts),
// which the seed's channels name as relative URLs. In a production build every path of the origin
// is Rancher's, so these go to $API too: a real Rancher answers /changelog-files/ with its own page
// or a 404, exactly as it would for the installed extension.
const appConfig = config(__dirname, {
  excludes,
  proxy: {
    '/elemental':       proxyOpts(api),
    '/changelog-files': proxyOpts(api),
  }
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
