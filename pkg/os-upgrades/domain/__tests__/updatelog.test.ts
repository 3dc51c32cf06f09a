import fc from 'fast-check';
import { syntheticUpdateLog } from '../../../../tests/support/synthetic';
import {
  advisoryCves, ChangelogFormatError, MAX_UPDATE_LOG_BYTES, MAX_UPDATE_LOG_ENTRIES, parseUpdateLog
} from '../index';

const README_EXAMPLE = `[ { "type": "security", "id": "SUSE-SLE-Micro-6.1-2024-123", "title": "Security update for curl",
    "severity": "important", "date": "1732636077",
    "references": [ { "href": "https://www.suse.com/security/cve/CVE-2024-11053/",
                      "id": "CVE-2024-11053", "title": "CVE-2024-11053", "type": "cve" } ],
    "description": "This update for curl fixes the following issues:\\n\\n- CVE-2024-11053: …",
    "packages": [ { "name": "curl", "version": "8.6.0", "release": "slfo.1.1_2.1", "arch": "x86_64" } ] } ]`;

function reasonOf(input: unknown): string | undefined {
  try {
    parseUpdateLog(input);

    return undefined;
  } catch (e) {
    if (!(e instanceof ChangelogFormatError)) {
      throw e;
    }

    return e.reason;
  }
}

describe('parseUpdateLog', () => {
  it('reads the documented format', () => {
    expect(parseUpdateLog(README_EXAMPLE)).toEqual([{
      id:         'SUSE-SLE-Micro-6.1-2024-123',
      type:       'security',
      title:      'Security update for curl',
      severity:   'important',
      date:       1732636077,
      references: [{
        href: 'https://www.suse.com/security/cve/CVE-2024-11053/', id: 'CVE-2024-11053', title: 'CVE-2024-11053', type: 'cve'
      }],
      description: 'This update for curl fixes the following issues:\n\n- CVE-2024-11053: …',
      packages:    [{
        name: 'curl', version: '8.6.0', release: 'slfo.1.1_2.1', arch: 'x86_64'
      }],
    }]);
  });

  it('fills in missing fields (all omitempty) and normalises odd ones', () => {
    const [empty, odd] = parseUpdateLog('[{}, {"id": 12, "severity": "Critical", "date": 1732636077, "references": [null, {"id": "CVE-2024-1"}], "packages": "curl"}]');

    expect(empty).toEqual({
      id: '', type: '', title: '', severity: '', references: [], description: '', packages: [],
    });
    expect(empty.date).toBeUndefined();
    expect(odd.id).toBe('12');
    expect(odd.severity).toBe('critical');
    expect(odd.date).toBe(1732636077);
    expect(odd.references).toEqual([{
      href: '', id: 'CVE-2024-1', title: '', type: ''
    }]);
    expect(odd.packages).toEqual([]);
    const [odder] = parseUpdateLog('[{"severity":"urgent","date":"soon"}]');

    expect(odder.severity).toBe('');
    expect(odder.date).toBeUndefined();
    expect(parseUpdateLog('[{"date":"2024-11-26T12:00:00Z"}]')[0].date).toBe(1732622400);
  });

  it('accepts already decoded JSON', () => {
    expect(parseUpdateLog(JSON.parse(README_EXAMPLE))).toEqual(parseUpdateLog(README_EXAMPLE));
  });

  it('reads synthetic logs', () => {
    const advisories = parseUpdateLog(syntheticUpdateLog('base-v2.2.0-3.12-os', {
      count: 40, seed: 7, after: 1732636077, before: 1732723652
    }));

    expect(advisories).toHaveLength(40);
    expect(advisories.every((a) => /^SUSE-SLE-Micro-6\.1-2024-\d+$/.test(a.id) && a.date! > 1732636077 && a.date! <= 1732723652)).toBe(true);
    expect(advisories.some((a) => advisoryCves(a).length > 0)).toBe(true);
  });

  it.each([
    ['', 'invalidJson'],
    ['{"id":"x"}', 'notAList'],
    ['null', 'notAList'],
    ['[1]', 'invalidEntry'],
    ['[{}, "x"]', 'invalidEntry'],
    [42, 'notAList'],
    [undefined, 'notAList'],
  ])('refuses %j with %s', (input, reason) => {
    expect(reasonOf(input)).toBe(reason);
  });

  it('enforces the size and entry limits', () => {
    expect(reasonOf(`[${ ' '.repeat(MAX_UPDATE_LOG_BYTES) }]`)).toBe('tooLarge');
    // Multi-byte characters count by their UTF-8 size.
    expect(reasonOf(`["${ 'é'.repeat(MAX_UPDATE_LOG_BYTES / 2) }"]`)).toBe('tooLarge');
    expect(reasonOf(`[${ Array(MAX_UPDATE_LOG_ENTRIES + 1).fill('{}').join(',') }]`)).toBe('tooManyEntries');
    expect(parseUpdateLog(`[${ Array(MAX_UPDATE_LOG_ENTRIES).fill('{}').join(',') }]`)).toHaveLength(MAX_UPDATE_LOG_ENTRIES);
  });

  it('gives an l10n key with its error', () => {
    const error = (() => {
      try {
        parseUpdateLog('{');
      } catch (e) {
        return e;
      }
    })();

    expect(error).toBeInstanceOf(ChangelogFormatError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'ChangelogFormatError', key: 'osUpgrades.changelog.error.invalidJson' });
  });

  it('throws nothing but ChangelogFormatError on random input', () => {
    const entry = fc.dictionary(fc.constantFrom('id', 'type', 'title', 'severity', 'date', 'references', 'packages', 'description', 'x'), fc.jsonValue({ maxDepth: 3 }));

    fc.assert(fc.property(fc.oneof(fc.string(), fc.json(), fc.anything(), fc.array(entry).map((list) => JSON.stringify(list))), (input) => {
      try {
        const advisories = parseUpdateLog(input);

        advisories.forEach((advisory) => {
          expect(typeof advisory.id).toBe('string');
          expect(Array.isArray(advisory.references)).toBe(true);
        });
      } catch (e) {
        expect(e).toBeInstanceOf(ChangelogFormatError);
      }
    }), { numRuns: 500 });
  });
});

describe('advisoryCves', () => {
  it('keeps well-formed CVE references only', () => {
    const [advisory] = parseUpdateLog(JSON.stringify([{
      references: [
        { id: 'CVE-2024-11053', type: 'cve' }, { id: 'cve-2023-0001', type: 'cve' }, { id: 'bsc#1234', type: 'bugzilla' }, { id: 'CVE-junk', type: 'cve' },
      ],
    }]));

    expect(advisoryCves(advisory)).toEqual(['CVE-2024-11053', 'CVE-2023-0001']);
  });
});
