import fc from 'fast-check';
import { readFleetMessage } from '..';

const said = (message: string) => readFleetMessage(message).map((part) => ({
  key: part.reason.key.replace('osUpgrades.fleetMessage.', ''), values: part.reason.values, detail: part.detail
}));

// Formats from rancher/fleet internal/cmd/controller/summary/summary.go (ReadyMessage) and
// pkg/apis/fleet.cattle.io/v1alpha1 (ModifiedStatus.String).
describe('Fleet\'s Ready message in words', () => {
  it('reads one state with the first cluster Fleet names', () => {
    expect(said('WaitApplied(2) [Cluster fleet-default/edge-munich]')).toEqual([
      {
        key: 'state.WaitApplied', values: { count: 2, name: 'fleet-default/edge-munich' }, detail: ''
      },
    ]);
  });

  it('reads several states joined by "; ", each with the cluster\'s own message', () => {
    expect(said('ErrApplied(1) [Cluster fleet-default/c1: admission webhook denied; retrying]; NotReady(3) [Cluster fleet-default/c2]')).toEqual([
      {
        key: 'state.ErrApplied', values: { count: 1, name: 'fleet-default/c1' }, detail: 'admission webhook denied; retrying'
      },
      {
        key: 'state.NotReady', values: { count: 3, name: 'fleet-default/c2' }, detail: ''
      },
    ]);
  });

  it('reads the modified resources Fleet lists after a state', () => {
    expect(said('Modified(1) [Cluster fleet-default/c1]; plan.upgrade.cattle.io cattle-system/os-upgrader-x modified {"spec":{}}; secret cattle-system/os-upgrader-x missing')).toEqual([
      {
        key: 'state.Modified', values: { count: 1, name: 'fleet-default/c1' }, detail: ''
      },
      {
        key: 'resource.modified', values: { resource: 'plan.upgrade.cattle.io cattle-system/os-upgrader-x' }, detail: '{"spec":{}}'
      },
      {
        key: 'resource.missing', values: { resource: 'secret cattle-system/os-upgrader-x' }, detail: ''
      },
    ]);
  });

  it('keeps what it does not know as the text Fleet wrote', () => {
    expect(said('Unknown(1) [Cluster c]; something else')).toEqual([
      {
        key: 'text', values: { text: 'Unknown(1) [Cluster c]' }, detail: ''
      },
      {
        key: 'text', values: { text: 'something else' }, detail: ''
      },
    ]);
    expect(readFleetMessage('')).toEqual([]);
  });

  it('loses nothing: the parts put together are the message (property)', () => {
    const part = fc.oneof(
      fc.tuple(fc.constantFrom('WaitApplied', 'NotReady', 'ErrApplied'), fc.nat(50), fc.stringMatching(/^[a-z-]{1,8}\/[a-z0-9-]{1,8}$/), fc.option(fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !s.includes(']') && s.trim() === s && !s.includes(';')), { nil: undefined }))
        .map(([state, count, name, message]) => `${ state }(${ count }) [Cluster ${ name }${ message ? `: ${ message }` : '' }]`),
      fc.stringMatching(/^[a-z][a-z ]{0,15}[a-z]$/),
    );

    fc.assert(fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), (parts) => {
      const message = parts.join('; ');

      expect(readFleetMessage(message).map((p) => p.raw).join('; ')).toBe(message);
    }));
  });
});
