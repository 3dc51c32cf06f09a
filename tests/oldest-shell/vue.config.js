// The shell's own app template (rancher/dashboard creators/extension/app/files/vue.config.js at
// shell-pkg-v3.0.5), with no package built in: the extension loads through /v1/uiplugins.
module.exports = require('@rancher/shell/vue.config')(__dirname, { excludes: [] });
