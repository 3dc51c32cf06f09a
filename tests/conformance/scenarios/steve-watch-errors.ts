// How Steve refuses a watch: from a revision it no longer holds (the shell then lists again and
// watches from the new revision: plugins/steve/subscribe.js, 'ws.resource.error' "too old"), and
// of a type it has no schema for (the shell marks the type in error).
import { Scenario } from '../scenario';

export const steveWatchErrors: Scenario = {
  name:  'steve-watch-errors',
  about: 'A watch from a revision Steve does not hold, and of a type without a schema: resource.error then resource.stop',
  steps: [{
    watch: {
      user:      'viewer',
      subscribe: [
        { resourceType: 'elemental.cattle.io.managedosversion', resourceVersion: '1' },
        { resourceType: 'elemental.cattle.io.nosuchtype' },
      ],
    },
    during:    [],
    collectMs: 1000,
  }],
};
