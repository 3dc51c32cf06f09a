// The shell's app registers these directives (@shell/initialize/install-directives.js); a component
// test mounts without that app, and Vue's warning for each unresolved one prints the component's
// props, hundreds of thousands of lines per run. No-ops here: the tests do not assert tooltips.
const { config } = require('@vue/test-utils');

config.global.directives = {
  ...config.global.directives,
  'clean-tooltip':       {},
  'stripped-aria-label': {},
};
