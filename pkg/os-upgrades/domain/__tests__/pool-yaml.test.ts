import fc from 'fast-check';
import jsyaml from 'js-yaml';
import {
  APPROVED_BY_ANNOTATION, emptySelectorFields, GUARDED_SPEC_FIELDS, guardedChange, fieldTab, formFromPool, newPoolForm, readDraft, problemPlaces, parseYamlText, planFormWrite, PoolYamlRead, readPoolYaml, SELECTOR_ANNOTATION, yamlFieldPath, yamlShownObject
} from '..';
import type { KubeObject } from '../types';
import { NOW, poolObject, VERSIONS } from './pool-test-data';

function pool(): KubeObject {
  const object = poolObject({
    spec: {
      managedOSVersionName: 'v1', clusterTargets: [{ clusterSelector: { matchLabels: { site: 'lyon' } } }], concurrency: 2, cordon: true, drain: { force: true, timeout: 30 }
    },
  });

  (object.metadata as Record<string, unknown>).resourceVersion = '7';
  (object.metadata as Record<string, unknown>).labels = { team: 'edge' };

  return object;
}

/** The YAML the view shows for a pool, edited by `change`, read back. */
function edit(original: KubeObject, change: (object: any) => void): PoolYamlRead { // eslint-disable-line @typescript-eslint/no-explicit-any
  const shown = yamlShownObject(original);
  const object = JSON.parse(JSON.stringify(shown));

  change(object);

  return readPoolYaml(jsyaml.dump(object), {
    shown, original, form: formFromPool(original)
  });
}

function plan(original: KubeObject, read: PoolYamlRead) {
  if (read.kind !== 'edit') {
    throw new Error(`not read: ${ read.kind }`);
  }

  return planFormWrite({
    original, form: read.form, initialForm: formFromPool(original), versions: VERSIONS, now: NOW, yaml: read.parts
  });
}

function written(original: KubeObject, read: PoolYamlRead): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  const result = plan(original, read);

  if (!result.ok) {
    throw new Error(`refused: ${ result.reason.key }`);
  }

  return result.object;
}

describe('the pool form\'s YAML view, edited', () => {
  it('writes a label changed in the YAML, and nothing else', () => {
    const original = pool();
    const object = written(original, edit(original, (o) => {
      o.metadata.labels.team = 'core';
    }));

    expect(object.metadata.labels).toEqual({ team: 'core' });
    expect({ ...object, metadata: { ...object.metadata, labels: { team: 'edge' } } }).toEqual(original);
    expect(object.metadata.resourceVersion).toBe('7');
  });

  it('writes form fields typed in the YAML through the form (targets, concurrency), keeping what the form cannot show', () => {
    const original = pool();
    const read = edit(original, (o) => {
      o.spec.concurrency = 5;
      o.spec.clusterTargets.push({ clusterName: 'edge-berlin' });
      o.spec.drain.timeout = 90;
      o.spec.clusterRolloutStrategy = { maxUnavailable: 1 };
    });
    const object = written(original, read);

    expect(read.kind === 'edit' && read.form.concurrency).toBe('5');
    expect(object.spec.concurrency).toBe(5);
    expect(object.spec.clusterTargets).toEqual([{ clusterSelector: { matchLabels: { site: 'lyon' } } }, { clusterName: 'edge-berlin' }]);
    expect(object.spec.drain).toEqual({
      force: true, timeout: 90, ignoreDaemonSets: false, deleteLocalData: false
    });
    expect(object.spec.clusterRolloutStrategy).toEqual({ maxUnavailable: 1 });
  });

  it('removes a label and a spec field deleted in the YAML', () => {
    const original = pool();

    (original.spec as Record<string, unknown>).clusterRolloutStrategy = { maxUnavailable: 1 };
    const object = written(original, edit(original, (o) => {
      delete o.metadata.labels;
      delete o.spec.clusterRolloutStrategy;
    }));

    expect(object.metadata.labels).toEqual({});
    expect(object.spec.clusterRolloutStrategy).toBeUndefined();
  });

  it('refuses a change of the pin or of its approval annotations: the image changes only through Approve', () => {
    const original = pool();

    (original.metadata as any).annotations = { [APPROVED_BY_ANNOTATION]: 'admin' }; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const change of [
      (o: any) => { // eslint-disable-line @typescript-eslint/no-explicit-any
        o.spec.managedOSVersionName = 'v2';
      },
      (o: any) => { // eslint-disable-line @typescript-eslint/no-explicit-any
        o.spec.osImage = 'registry/os:2';
      },
      (o: any) => { // eslint-disable-line @typescript-eslint/no-explicit-any
        o.metadata.annotations[APPROVED_BY_ANNOTATION] = 'someone';
      },
    ]) {
      expect(edit(original, change)).toEqual({ kind: 'refused', reason: { key: 'osUpgrades.poolYaml.refusal.pinChanged' } });
    }
  });

  it('refuses a change of what runs on the nodes (upgrade container, prepare, cloud-config), naming the field', () => {
    const original = pool();

    (original.spec as any).upgradeContainer = { image: 'registry/os:1', envs: [{ name: 'FORCE', value: 'true' }] }; // eslint-disable-line @typescript-eslint/no-explicit-any
    const field = (change: (o: any) => void) => { // eslint-disable-line @typescript-eslint/no-explicit-any
      const read = edit(original, change);

      return read.kind === 'refused' && read.reason.key === 'osUpgrades.poolYaml.refusal.guardedField' ? read.reason.values?.field : read.kind;
    };

    expect(field((o) => {
      o.spec.upgradeContainer.image = 'registry.example/evil:1';
    })).toBe('spec.upgradeContainer.image');
    expect(field((o) => {
      o.spec.upgradeContainer.command = ['/bin/sh'];
    })).toBe('spec.upgradeContainer.command');
    expect(field((o) => {
      o.spec.upgradeContainer.args = ['-c', 'x'];
    })).toBe('spec.upgradeContainer.args');
    expect(field((o) => {
      o.spec.upgradeContainer.envs = [];
    })).toBe('spec.upgradeContainer.envs');
    expect(field((o) => {
      delete o.spec.upgradeContainer;
    })).toBe('spec.upgradeContainer');
    expect(field((o) => {
      o.spec.prepare = { image: 'busybox' };
    })).toBe('spec.prepare');
    expect(field((o) => {
      o.spec.cloudConfig = { users: [{ name: 'x' }] };
    })).toBe('spec.cloudConfig');
    // The same container, its keys in another order, is no change.
    expect(field((o) => {
      o.spec.upgradeContainer = { envs: [{ value: 'true', name: 'FORCE' }], image: 'registry/os:1' };
    })).toBe('edit');
  });

  it('refuses a new pool typed in the YAML with its own upgrade container', () => {
    const shown = {
      apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSImage', metadata: { name: 'a', namespace: 'fleet-default' }, spec: {}
    };
    const read = readPoolYaml(jsyaml.dump({ ...shown, spec: { upgradeContainer: { image: 'registry.example/evil:1' } } }), { shown, form: { ...newPoolForm(), name: 'a' } });

    expect(read.kind === 'refused' && read.reason.values?.field).toBe('spec.upgradeContainer');
  });

  it('refuses deleting spec.drain in the YAML: the server would store the CRD\'s default drain, not no drain', () => {
    const read = edit(pool(), (o) => {
      delete o.spec.drain;
    });

    expect(read).toEqual({ kind: 'refused', reason: { key: 'osUpgrades.poolYaml.refusal.deletedDefaulted', values: { field: 'spec.drain', value: '{"deleteLocalData":true,"force":true,"ignoreDaemonSets":true,"skipWaitForDeleteTimeout":60}' } } });
  });

  it('applies a deletion of a form field typed in the YAML (concurrency, cordon, node selector) instead of sending the form\'s value again', () => {
    for (const key of ['concurrency', 'cordon']) {
      const original = pool();
      const object = written(original, edit(original, (o) => {
        delete o.spec[key];
      }));

      expect(key in object.spec).toBe(false);
      expect({ ...object.spec, [key]: (original.spec as Record<string, unknown>)[key] }).toEqual(original.spec);
    }
  });

  it('refuses a spec field the CRD does not know, at any of its first two levels, before sending', () => {
    const field = (change: (o: any) => void) => { // eslint-disable-line @typescript-eslint/no-explicit-any
      const read = edit(pool(), change);

      return read.kind === 'refused' && read.reason.key === 'osUpgrades.poolYaml.refusal.unknownSpecField' ? read.reason.values?.field : read.kind;
    };

    expect(field((o) => {
      o.spec.bogusField = 1;
    })).toBe('spec.bogusField');
    expect(field((o) => {
      o.spec.drain.forse = true;
    })).toBe('spec.drain.forse');
    expect(field((o) => {
      o.spec.clusterTargets.push({ clusterNam: 'x' });
    })).toBe('spec.clusterTargets.1.clusterNam');
    expect(field((o) => {
      o.spec.clusterRolloutStrategy = { maxUnavailable: '10%' };
    })).toBe('edit');
    // A field name of any length is named by its start.
    expect(String(field((o) => {
      o.spec['x'.repeat(100_000)] = 1;
    })).length).toBeLessThan(130);
  });

  it('refuses annotations over the API server\'s 256 KiB in all, and an annotation key it refuses, as field problems', () => {
    const problems = (annotations: Record<string, string>) => {
      const read = edit(pool(), (o) => {
        o.metadata.annotations = annotations;
      });

      return read.kind === 'edit' ? read.parts.problems.map((p) => [p.field, p.reason.key.split('.').pop()]) : read.kind;
    };

    expect(problems({ note: 'x'.repeat(300 * 1000) })).toEqual([['metadata.annotations', 'annotationsTooLarge']]);
    expect(problems({ note: 'x'.repeat(256 * 1024 - 4) })).toEqual([]);
    expect(problems({ note: 'x'.repeat(256 * 1024 - 3) })).toEqual([['metadata.annotations', 'annotationsTooLarge']]);
    expect(problems({ 'bad key': 'x' })).toEqual([['metadata.annotations.bad key', 'labelKeyInvalid']]);
  });

  it('refuses a selector, a rename, the server\'s metadata, a status and another kind', () => {
    const original = pool();
    const key = (read: PoolYamlRead) => (read.kind === 'refused' ? read.reason.key.split('.').pop() : read.kind);

    expect(key(edit(original, (o) => {
      o.metadata.annotations = { [SELECTOR_ANNOTATION]: '{"channel":"x"}' };
    }))).toBe('selectorChanged');
    expect(key(edit(original, (o) => {
      o.metadata.name = 'other';
    }))).toBe('renamed');
    expect(key(edit(original, (o) => {
      o.metadata.resourceVersion = '8';
    }))).toBe('serverField');
    expect(key(edit(original, (o) => {
      o.status = {};
    }))).toBe('unknownField');
    expect(key(edit(original, (o) => {
      o.kind = 'Pod';
    }))).toBe('kindChanged');
  });

  it('shows a target that does not parse, a bad label and values of the wrong type as problems, never drops them', () => {
    const original = pool();
    const read = edit(original, (o) => {
      o.spec.clusterTargets = [{ clusterSelector: { matchLabels: { 'site lyon': 'x' } } }, 'edge-berlin'];
      o.metadata.labels = { team: 'x'.repeat(100) };
      o.spec.cordon = 'yes';
      o.spec.concurrency = 1e20;
    });

    expect(read.kind).toBe('edit');
    const result = plan(original, read);

    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason.key).toBe('osUpgrades.poolForm.fieldProblems');
    if (read.kind === 'edit') {
      expect(read.parts.problems.map((p) => p.field)).toEqual(['metadata.labels.team', 'spec.clusterTargets.1', 'spec.cordon']);
      expect(read.form.concurrency).toBe('100000000000000000000');
      expect(read.form.targets[0].value).toBe('site lyon=x');
    }
  });

  it('keeps a concurrency typed as text for the form\'s check to refuse', () => {
    const read = edit(pool(), (o) => {
      o.spec.concurrency = 'many';
    });

    expect(read.kind === 'edit' && read.form.concurrency).toBe('many');
  });

  it('a new pool takes its name from the YAML; an edit keeps its own', () => {
    const shown = {
      apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSImage', metadata: { name: 'a', namespace: 'fleet-default' }, spec: { managedOSVersionName: 'v1' }
    };
    const created = readPoolYaml(jsyaml.dump({ ...shown, metadata: { name: 'b', namespace: 'fleet-default' } }), { shown, form: { ...newPoolForm(), name: 'a' } });

    expect(created.kind === 'edit' && created.form.name).toBe('b');
  });

  it('gives the parser\'s line and message for YAML that does not parse', () => {
    const read = readPoolYaml('spec:\n  concurrency: 1\n   cordon: true\n', {
      shown: yamlShownObject(pool()), original: pool(), form: formFromPool(pool())
    });

    expect(read.kind).toBe('syntax');
    expect(read.kind === 'syntax' && read.error.line).toBe(3);
    expect(read.kind === 'syntax' && read.error.message).toMatch(/mapping/);
  });

  it('reads no dates or custom types (the JSON schema)', () => {
    expect(parseYamlText('a: 2026-12-01')).toEqual({ value: { a: '2026-12-01' } });
    expect('error' in parseYamlText('a: !!js/function "function () {}"')).toBe(true);
  });

  it('names each form field\'s place in the YAML', () => {
    expect(yamlFieldPath('target.2')).toBe('spec.clusterTargets.2');
    expect(yamlFieldPath('nodeLabel.0')).toBe('spec.nodeSelector.matchLabels (1)');
    expect(yamlFieldPath('spec.cordon')).toBe('spec.cordon');
  });

  it('property: the YAML shown, read back unchanged, writes exactly the pool as read', () => {
    fc.assert(fc.property(
      fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/), fc.stringMatching(/^[a-z0-9]{0,8}$/)),
      fc.integer({ min: 1, max: 1000 }),
      fc.boolean(),
      (labels, concurrency, cordon) => {
        const original = pool();

        (original.metadata as Record<string, unknown>).labels = labels;
        Object.assign(original.spec as Record<string, unknown>, { concurrency, cordon });

        expect(written(original, edit(original, () => undefined))).toEqual(original);
      }
    ));
  });

  it('property: no YAML edit changes what runs on the nodes; it is refused, or written with every guarded field as read', () => {
    const guarded = fc.constantFrom(...GUARDED_SPEC_FIELDS);
    const other = fc.constantFrom('concurrency', 'cordon', 'drain', 'clusterTargets', 'nodeSelector', 'clusterRolloutStrategy');
    const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ image: fc.constantFrom('registry/os:1', 'registry.example/evil:1'), envs: fc.constant([{ name: 'FORCE', value: 'true' }]) }));
    const change = fc.tuple(fc.oneof(guarded, other), fc.option(value, { nil: undefined }));

    fc.assert(fc.property(fc.array(change, { maxLength: 5 }), fc.boolean(), (changes, withContainer) => {
      const original = pool();

      if (withContainer) {
        (original.spec as Record<string, unknown>).upgradeContainer = { image: 'registry/os:1', args: ['a'] };
      }
      const read = edit(original, (o) => {
        for (const [field, v] of changes) {
          if (v === undefined) {
            delete o.spec[field];
          } else {
            o.spec[field] = v;
          }
        }
      });

      if (read.kind !== 'edit') {
        return;
      }
      const result = plan(original, read);

      if (result.ok) {
        expect(guardedChange(original, result.object)).toBeUndefined();
      }
    }));
  });

  it('property: a label value typed in the YAML is written exactly when it is valid, else refused', () => {
    fc.assert(fc.property(fc.string({ maxLength: 70 }), (value) => {
      const original = pool();
      const result = plan(original, edit(original, (o) => {
        o.metadata.labels.team = value;
      }));
      const valid = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(value) && value.length <= 63;

      expect(result.ok).toBe(valid);
      if (result.ok) {
        expect((result.object.metadata as any).labels.team).toBe(value); // eslint-disable-line @typescript-eslint/no-explicit-any
      }
    }));
  });
});

describe('the pool form\'s tabs', () => {
  it('puts each field, typed in the form or the YAML, on its tab, in the form\'s order', () => {
    const places = (formFields: string[]) => problemPlaces({
      formFields, yamlProblems: false, readOnly: false
    });

    expect(places(['concurrency', 'name', 'target.1'])).toEqual(['identity', 'targets', 'rollout']);
    expect(places(['spec.drain.force', 'spec.nodeSelector.matchLabels', 'selector'])).toEqual(['targets', 'image', 'rollout']);
    expect(fieldTab('metadata.labels.team')).toBeUndefined();
  });
});

describe('a draft kept after a 401', () => {
  it('keeps the YAML view\'s parts, and refuses a draft whose parts are not such', () => {
    const draft = {
      principal: 'u', poolId: 'fleet-default/edge', form: newPoolForm(), selectorFields: emptySelectorFields(), savedAt: NOW
    };
    const yaml = {
      specBase: {}, extra: { spec: {}, labels: { tier: 'gold' } }, problems: []
    };

    expect(readDraft({ ...draft, yaml }, 'u', 'fleet-default/edge', NOW)?.yaml).toEqual(yaml);
    expect(readDraft({ ...draft, yaml: { extra: 1 } }, 'u', 'fleet-default/edge', NOW)).toBeUndefined();
  });
});
