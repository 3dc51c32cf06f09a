/** @jest-environment node */
import { objectApi, thrown } from './helpers';
import { labelValueErrors } from '../../emulator/kube/validate';
import { USERS, userActor } from '../../emulator/rancher/users';
import { DEFAULT_RELEASE, NodeRegistry, bootInto, releaseOf } from '../../emulator/suc/nodes';

const admin = userActor(USERS[0]);
/** The image whose label elemental-populate-node-labels writes with 64 characters. */
const LONG_IMAGE = 'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12';
const LONG_LABEL = LONG_IMAGE.replace(/[/:]/g, '-');

function setup() {
  const { api, registry } = objectApi();

  return { api, image: registry.require('elemental.cattle.io.managedosimage') };
}

describe('label values, as the API server validates them', () => {
  it('knows the long image label is 64 characters', () => {
    expect(LONG_LABEL).toHaveLength(64);
    expect(labelValueErrors(LONG_LABEL)).toEqual(['must be no more than 63 characters']);
    expect(labelValueErrors(LONG_LABEL.slice(1))).toEqual([]);
    expect(labelValueErrors('')).toEqual([]);
    expect(labelValueErrors('-starts-with-dash')).toHaveLength(1);
    expect(labelValueErrors('has space')).toHaveLength(1);
  });

  it('refuses a create with a 64-character label value with the 422 Invalid body, storing nothing', () => {
    const { api, image } = setup();
    const error = thrown(() => api.create(image, 'fleet-default', { metadata: { name: 'p', labels: { 'elemental.cattle.io/image': LONG_LABEL } }, spec: { osImage: 'x' } }, admin));

    expect(error.toStatus()).toMatchObject({
      code:    422,
      reason:  'Invalid',
      message: `ManagedOSImage.elemental.cattle.io "p" is invalid: metadata.labels: Invalid value: "${ LONG_LABEL }": must be no more than 63 characters`,
      details: { causes: [{ field: 'metadata.labels', reason: 'FieldValueInvalid' }] },
    });
    expect(api.find(image, 'fleet-default', 'p')).toBeUndefined();
  });

  it('refuses an update whole: every label keeps its value', () => {
    const { api, image } = setup();
    const created = api.create(image, 'fleet-default', { metadata: { name: 'p', labels: { 'elemental.cattle.io/tag': '2.2.0-3.8' } }, spec: { osImage: 'x' } }, admin);
    const labels = { 'elemental.cattle.io/tag': '2.2.0-3.12', 'elemental.cattle.io/image': LONG_LABEL };

    expect(thrown(() => api.update(image, 'fleet-default', 'p', { ...created, metadata: { ...created.metadata, labels } }, admin)).status).toBe(422);
    expect(api.get(image, 'fleet-default', 'p').metadata.labels).toEqual({ 'elemental.cattle.io/tag': '2.2.0-3.8' });
  });
});

describe('an emulated host booting an image (elemental-populate-node-labels)', () => {
  it('writes the labels of a short image', () => {
    const [node] = new NodeRegistry().ensure('fleet-default', 'c', 1);
    const release = releaseOf('registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.9');

    expect(bootInto(node, release)).toBe(true);
    expect(node.labels['elemental.cattle.io/tag']).toBe('2.2.0-3.9');
  });

  it('tells when the real API server would refuse the labels of an image whose label is over 63 characters', () => {
    const [node] = new NodeRegistry().ensure('fleet-default', 'c', 1);

    expect(DEFAULT_RELEASE.tag).toBe('2.2.0-3.8');
    expect(bootInto(node, releaseOf(LONG_IMAGE))).toBe(false);
    expect(node.release.tag).toBe('2.2.0-3.12');
  });
});
