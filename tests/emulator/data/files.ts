// The files the emulator serves besides the API: channel files (read by the simulated operator)
// and each version's changelog and package list (at the operator's proposed endpoint).
// Emulates nothing itself: it holds the fixtures in the formats of rancher/elemental-channels
// (channels/*.json, <version>.updates.log, <version>.packages) for the modules that serve them.

import { FixtureData } from './fixtures';
import { GeneratedChannel } from './scale-channel';

export type FileKind = 'changelog' | 'packages';

export class ServedFiles {
  private channels = new Map<string, string>();
  private readonly published = new Map<string, string>();
  private readonly overrides = { changelog: new Map<string, string>(), packages: new Map<string, string>() };

  constructor(private readonly fixtures: FixtureData, private readonly generated: GeneratedChannel[]) {
    this.reset();
  }

  /** Back to the fixtures: drops published channel files and uploaded changelogs. */
  reset(): void {
    this.channels = new Map(this.fixtures.channels);
    for (const channel of this.generated) {
      this.channels.set(channel.name, JSON.stringify(channel.entries, null, 2));
    }
    this.published.clear();
    this.overrides.changelog.clear();
    this.overrides.packages.clear();
  }

  channelNames(): string[] {
    return [...this.channels.keys()].sort();
  }

  channelFile(name: string): string | undefined {
    return this.channels.get(name);
  }

  publishChannel(name: string, text: string): void {
    this.channels.set(name, text);
    this.published.set(name, text);
  }

  setFile(kind: FileKind, versionName: string, text: string): void {
    this.overrides[kind].set(versionName, text);
  }

  file(kind: FileKind, versionName: string): string | undefined {
    const override = this.overrides[kind].get(versionName);

    if (override !== undefined) {
      return override;
    }
    const fromFixtures = kind === 'changelog' ? this.fixtures.changelogs.get(versionName) : this.fixtures.packages.get(versionName);

    if (fromFixtures !== undefined) {
      return fromFixtures;
    }
    for (const channel of this.generated) {
      const text = kind === 'changelog' ? channel.changelog(versionName) : channel.packages(versionName);

      if (text !== undefined) {
        return text;
      }
    }

    return undefined;
  }
}
