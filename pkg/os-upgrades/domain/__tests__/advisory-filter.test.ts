import type { ChangelogEntry } from '..';
import { filterAdvisories, searchIndex } from '../advisory-filter';

function entry(id: string, severity: ChangelogEntry['severity'], extra: Partial<ChangelogEntry> = {}): ChangelogEntry {
  return {
    id, severity, type: 'security', title: '', references: [], description: '', packages: [], versionName: 'v1', ...extra
  };
}

const advisories = [
  entry('SUSE-2024-1', 'critical', {
    title:      'Security update for curl',
    references: [{
      id: 'CVE-2024-11053', href: '', title: '', type: 'cve'
    }]
  }),
  entry('SUSE-2024-2', 'important', {
    title:    'Security update for the Linux Kernel',
    packages: [{
      name: 'kernel-default', version: '6.4.0', release: '1.3', arch: 'x86_64'
    }]
  }),
  entry('SUSE-2024-3', '', { title: 'Recommended update for zypper' }),
];
const index = searchIndex(advisories);
const ids = (list: ChangelogEntry[]) => list.map((item) => item.id);

describe('filterAdvisories', () => {
  it('shows everything without filters', () => {
    expect(ids(filterAdvisories(index, [], ''))).toEqual(['SUSE-2024-1', 'SUSE-2024-2', 'SUSE-2024-3']);
  });

  it('keeps only the chosen severities, `none` meaning no severity', () => {
    expect(ids(filterAdvisories(index, ['critical', 'none'], ''))).toEqual(['SUSE-2024-1', 'SUSE-2024-3']);
  });

  it('searches ids, CVEs, titles and package names, case-insensitively, every word', () => {
    expect(ids(filterAdvisories(index, [], 'cve-2024-11053'))).toEqual(['SUSE-2024-1']);
    expect(ids(filterAdvisories(index, [], 'KERNEL-DEFAULT'))).toEqual(['SUSE-2024-2']);
    expect(ids(filterAdvisories(index, [], 'suse-2024-3'))).toEqual(['SUSE-2024-3']);
    expect(ids(filterAdvisories(index, [], 'security curl'))).toEqual(['SUSE-2024-1']);
    expect(ids(filterAdvisories(index, ['important'], 'curl'))).toEqual([]);
  });
});
