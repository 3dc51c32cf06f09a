// The one write of a ManagedOSVersionChannel (a withdrawal, a restore, its changelog sources): the
// annotations a person changed, sent with the resourceVersion of the read they were planned on.
import { samePersonContent } from '../domain';
import { TYPE } from '../config';
import type { ShellStore } from './resources';
import { STATUS_ONLY_RETRIES, write, WriteAnswer, WritePlan } from './write';

/**
 * Plans on `before` and sends. The operator writes a channel's status at every sync
 * (rancher/elemental-operator controllers/managedosversionchannel_controller.go), which answers
 * the write 409; when only that moved, the plan is made again on the new read and sent. A change
 * of its spec, labels or annotations writes nothing, and the outcome holds the latest read.
 */
export async function writeChannel(store: ShellStore, before: Record<string, unknown>, plan: (before: Record<string, unknown>) => WritePlan): Promise<WriteAnswer> {
  return await write(store, {
    type:   TYPE.CHANNEL,
    mode:   'update',
    before,
    plan:   (read) => plan(read ?? before),
    replan: { when: samePersonContent, times: STATUS_ONLY_RETRIES },
  });
}
