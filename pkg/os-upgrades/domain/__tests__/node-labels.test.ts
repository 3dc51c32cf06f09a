import { nodeLabelProblems, populatedNodeLabels } from '../node-labels';

const SHORT = 'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.9';
const LONG = 'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12';

describe('the labels Elemental gives a node that boots an image', () => {
  it('writes the image with / and : as -, the tag, and the os-upgrader label', () => {
    expect(populatedNodeLabels(SHORT)).toEqual({
      'elemental.cattle.io/image':          'registry.suse.com-suse-sl-micro-6.1-base-os-container-2.2.0-3.9',
      'elemental.cattle.io/tag':            '2.2.0-3.9',
      'plan.upgrade.cattle.io/os-upgrader': 'registry.suse.com-suse-sl-micro-6.1-base-os-container-2.2.0-3.9',
    });
  });

  it('keeps a registry port and takes the tag after the last colon', () => {
    expect(populatedNodeLabels('host:5000/os:1.2')).toMatchObject({ 'elemental.cattle.io/image': 'host-5000-os-1.2', 'elemental.cattle.io/tag': '1.2' });
  });

  it('does not judge a digest or a reference without a tag: the image\'s own os-release decides', () => {
    expect(populatedNodeLabels('registry.example.test/os@sha256:0123abcd')).toBeUndefined();
    expect(populatedNodeLabels('host:5000/os')).toBeUndefined();
    expect(nodeLabelProblems(`host:5000/${ 'a'.repeat(70) }@sha256:0123abcd`)).toEqual([]);
    expect(nodeLabelProblems('host:5000/os')).toEqual([]);
  });
});

describe('whether a kubelet starts with them', () => {
  it('accepts 63 characters', () => {
    expect(populatedNodeLabels(SHORT)?.['elemental.cattle.io/image']).toHaveLength(63);
    expect(nodeLabelProblems(SHORT)).toEqual([]);
  });

  it('refuses 64: the image and os-upgrader labels, with the length', () => {
    const problems = nodeLabelProblems(LONG);

    expect(problems.map((p) => p.key)).toEqual(['elemental.cattle.io/image', 'plan.upgrade.cattle.io/os-upgrader']);
    expect(problems[0].reason).toEqual({ key: 'osUpgrades.input.labelValueTooLong', values: { max: 63, length: 64 } });
  });

  it('counts the registry port in the length', () => {
    const repository = 'r'.repeat(63 - 'host-5000--1'.length);

    expect(nodeLabelProblems(`host:5000/${ repository }:1`)).toEqual([]);
    expect(nodeLabelProblems(`host:5000/${ repository }:12`)[0]).toMatchObject({ key: 'elemental.cattle.io/image', reason: { values: { length: 64 } } });
  });

  it('refuses a character a label value may not have', () => {
    const problems = nodeLabelProblems('registry.example.test/os:v1+build');

    expect(problems.map((p) => p.key)).toEqual(['elemental.cattle.io/image', 'elemental.cattle.io/tag', 'plan.upgrade.cattle.io/os-upgrader']);
    expect(problems[1].reason.key).toBe('osUpgrades.input.labelValueInvalid');
  });
});
