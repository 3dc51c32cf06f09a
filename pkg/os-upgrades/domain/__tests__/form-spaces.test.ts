import fc from 'fast-check';
import { formProblems, newPoolForm, PoolForm, specForCreate } from '..';

/** A form that is valid but for the one field set by `change`. */
function problemsOf(change: (form: PoolForm) => void): string[] {
  const form: PoolForm = { ...newPoolForm(), name: 'edge-x' };

  change(form);

  return formProblems(form).map((p) => `${ p.field }:${ p.reason.key.split('.').pop() }`);
}

describe('nothing typed is trimmed silently', () => {
  it('refuses a name, a node-selector key or value, a target and a concurrency with spaces around them, beside that field', () => {
    expect(problemsOf((f) => {
      f.name = ' edge-x ';
    })).toEqual(['name:surroundingSpace']);
    expect(problemsOf((f) => {
      f.nodeLabels = [{ key: ' role', value: 'edge' }];
    })).toEqual(['nodeLabel.0:surroundingSpace']);
    expect(problemsOf((f) => {
      f.nodeLabels = [{ key: 'role', value: 'edge ' }];
    })).toEqual(['nodeLabel.0:surroundingSpace']);
    expect(problemsOf((f) => {
      f.targets = [{ kind: 'clusterName', value: 'edge-1 ' }];
    })).toEqual(['target.0:surroundingSpace']);
    expect(problemsOf((f) => {
      f.concurrency = ' 2';
    })).toEqual(['concurrency:surroundingSpace']);
  });

  it('property: a node selector the form accepts is written exactly as typed', () => {
    fc.assert(fc.property(fc.array(fc.record({ key: fc.string({ maxLength: 8 }), value: fc.string({ maxLength: 8 }) }), { maxLength: 4 }), (rows) => {
      const form: PoolForm = {
        ...newPoolForm(), name: 'edge-x', nodeLabels: rows
      };

      if (formProblems(form).length) {
        return;
      }
      const matchLabels = (specForCreate(form).nodeSelector as { matchLabels?: Record<string, string> } | undefined)?.matchLabels ?? {};

      expect(Object.entries(matchLabels)).toEqual(rows.map((row) => [row.key, row.value]));
    }));
  });
});
