// The sources page: per channel the changelog URL template and the package-tar URL, and the
// allowed origins setting; each can be tested, and is written through the API.
import { defineStore } from 'pinia';
import {
  asOSVersions, CHANGELOG_URL_ANNOTATION, channelWithSources, jsonCopy, KubeObject, orderChannel, PACKAGES_TAR_ANNOTATION, WriteNotice, writeNotice, WriteOutcome
} from '../domain';
import { asIs, write } from '../api/write';
import { writeChannel } from '../api/channels';
import { keepText, takeText } from './text-drafts';
import { CHANGELOG_ORIGINS_SETTING, parseAllowedOrigins } from '../api/changelog-url';
import {
  canCreate, canUpdate, errorMessage, findAll, findOne, ShellStore
} from '../api/resources';
import { SourceTest, TestedFile, testSource } from '../api/source-test';
import { TYPE } from '../config';
import { useChangelogsStore } from './changelogs';
import { useChannelListStore } from './channel-list';

export type { SourceTest, TestedFile };

export const SETTING_TYPE = 'management.cattle.io.setting';

export interface ChannelSources {
  namespace: string;
  name: string;
  template: string;
  tarUrl: string;
}

export type SaveState =
  | { state: 'idle' }
  | { state: 'saving' }
  /** What the write did, in words (`saved`: it is stored). */
  | { state: 'saved' | 'unauthorized' | 'error'; notice: WriteNotice };

function annotationsOf(object: KubeObject): Record<string, string> {
  return ((object.metadata as { annotations?: Record<string, string> } | undefined)?.annotations) ?? {};
}

/** The sources page's draft: its template, tar URL and origins as typed. */
const SOURCES_TARGET = 'sources';

const channelKey = (namespace: string, name: string) => `${ namespace }/${ name }`;

export const useChangelogSourcesStore = defineStore('osUpgrades/changelogSources', {
  state: () => ({
    loading:    false,
    loadError:  '' as string,
    /** What was read, by `namespace/name`, to write back with its resourceVersion. */
    channels:   {} as Record<string, KubeObject>,
    drafts:     {} as Record<string, ChannelSources>,
    /** Per channel, its newest container version: the file a template's "Test" fetches. */
    samples:    {} as Record<string, string>,
    /** The setting as read; undefined when it does not exist yet. */
    setting:    undefined as KubeObject | undefined,
    origins:    '',
    saves:      {} as Record<string, SaveState>,
    tests:      {} as Record<string, SourceTest | 'testing'>,
    cache:      { entries: 0, bytes: 0 },
    /** Unix seconds of the entries given back after a new login (0 when none). */
    restoredAt: 0,
  }),

  getters: {
    rows:   (state): ChannelSources[] => Object.values(state.drafts).sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name)),
    saveOf: (state) => (key: string): SaveState => state.saves[key] ?? { state: 'idle' },
    testOf: (state) => (key: string): SourceTest | 'testing' | undefined => state.tests[key],
  },

  actions: {
    /** May this person edit the sources (channels and settings)? */
    mayEdit(shellStore: ShellStore): boolean {
      return canUpdate(shellStore, TYPE.CHANNEL) && (canUpdate(shellStore, SETTING_TYPE) || canCreate(shellStore, SETTING_TYPE));
    },

    async load(shellStore: ShellStore): Promise<void> {
      this.loading = true;
      this.loadError = '';
      this.restoredAt = 0;
      try {
        // The channels without Steve's relationships (channel-list.ts), read afresh: the page edits them.
        const [rawChannels, rawVersions] = await Promise.all([useChannelListStore().load(shellStore, true), findAll(shellStore, TYPE.VERSION)]);
        const channels = rawChannels.map((c) => jsonCopy(c));
        const versions = orderChannel(asOSVersions(rawVersions as unknown[]).filter((v) => v.type === 'container'));

        this.samples = {};
        for (const version of versions) {
          const key = channelKey(version.namespace, version.channel);

          this.samples[key] = this.samples[key] ?? version.name;
        }

        this.channels = {};
        this.drafts = {};
        for (const channel of channels) {
          const { namespace = '', name = '' } = (channel.metadata ?? {}) as { namespace?: string; name?: string };
          const annotations = annotationsOf(channel);
          const key = channelKey(namespace, name);

          this.channels[key] = channel;
          this.drafts[key] = {
            namespace, name, template: annotations[CHANGELOG_URL_ANNOTATION] ?? '', tarUrl: annotations[PACKAGES_TAR_ANNOTATION] ?? ''
          };
        }
        await this.loadSetting(shellStore);
        this.restoreKept(shellStore);
        this.cache = await useChangelogsStore().cacheUsage(shellStore);
      } catch (err) {
        this.loadError = errorMessage(err);
      } finally {
        this.loading = false;
      }
    },

    async loadSetting(shellStore: ShellStore): Promise<void> {
      try {
        this.setting = jsonCopy(await findOne(shellStore, SETTING_TYPE, CHANGELOG_ORIGINS_SETTING, { force: true }));
        this.origins = String((this.setting as { value?: unknown }).value ?? '');
      } catch (err) {
        const status = (err as { _status?: number; status?: number } | undefined)?._status ?? (err as { status?: number } | undefined)?.status;

        if (status !== 404) {
          throw err;
        }
        this.setting = undefined;
        this.origins = '';
      }
    },

    /** Gives back what was typed when a save met 401 (the same person); it is not saved until Save. */
    restoreKept(shellStore: ShellStore): void {
      const kept = takeText(shellStore, 'sources', SOURCES_TARGET);

      if (!kept) {
        return;
      }
      this.restoredAt = kept.savedAt;
      for (const [field, value] of Object.entries(kept.texts)) {
        const [key, part] = [field.slice(0, field.lastIndexOf('#')), field.slice(field.lastIndexOf('#') + 1)];

        if (field === '#origins') {
          this.origins = value;
        } else if (this.drafts[key] && (part === 'template' || part === 'tarUrl')) {
          this.drafts[key][part] = value;
        }
      }
    },

    /** Keeps every source as typed, for after a new login. */
    keepTyped(shellStore: ShellStore): boolean {
      const texts: Record<string, string> = { '#origins': this.origins };

      for (const [key, draft] of Object.entries(this.drafts)) {
        texts[`${ key }#template`] = draft.template;
        texts[`${ key }#tarUrl`] = draft.tarUrl;
      }

      return keepText(shellStore, 'sources', SOURCES_TARGET, texts);
    },

    /** Sets a save's state from a write's outcome; the entries are kept after a 401. */
    settle(shellStore: ShellStore, key: string, outcome: WriteOutcome): void {
      const kept = outcome.kind === 'unauthorized' && this.keepTyped(shellStore);
      const notice = writeNotice(outcome, { subject: 'sources', kept });

      if (notice) {
        this.saves[key] = { state: outcome.kind === 'written' ? 'saved' : outcome.kind === 'unauthorized' ? 'unauthorized' : 'error', notice };
      }
    },

    setDraft(key: string, field: 'template' | 'tarUrl', value: string): void {
      const draft = this.drafts[key];

      if (draft) {
        draft[field] = value;
        this.saves[key] = { state: 'idle' };
      }
    },

    setOrigins(value: string): void {
      this.origins = value;
      this.saves.origins = { state: 'idle' };
    },

    /** Writes one channel's two annotations with the resourceVersion that was read (409 if someone changed it). */
    async saveChannel(shellStore: ShellStore, key: string): Promise<void> {
      const draft = this.drafts[key];
      const channel = this.channels[key];

      if (!draft || !channel) {
        return;
      }
      this.saves[key] = { state: 'saving' };
      const outcome = await writeChannel(shellStore, channel, (read) => ({ ok: true, object: channelWithSources(read, draft) }));

      if (outcome.kind === 'written') {
        this.channels[key] = jsonCopy(outcome.stored);
      }
      this.settle(shellStore, key, outcome);
    },

    /** Writes the allowed origins; creates the setting when it does not exist. */
    async saveOrigins(shellStore: ShellStore): Promise<void> {
      this.saves.origins = { state: 'saving' };
      const value = parseAllowedOrigins(this.origins).join(',');

      const object = this.setting ? { ...this.setting, value } : {
        type: SETTING_TYPE, metadata: { name: CHANGELOG_ORIGINS_SETTING }, value
      };
      const outcome = await write(shellStore, {
        type: SETTING_TYPE, plan: asIs(object as KubeObject), mode: this.setting ? 'update' : 'create', before: this.setting
      });

      if (outcome.kind === 'written') {
        this.setting = jsonCopy(outcome.stored);
        this.origins = value;
        useChangelogsStore().forgetClient();
      }
      this.settle(shellStore, 'origins', outcome);
    },

    /** Fetches one file of the URL as typed (for a template, the channel's newest version's). */
    async test(key: string, file: TestedFile, url: string): Promise<void> {
      this.tests[key] = 'testing';
      this.tests[key] = await testSource(file, url, window.location.origin, parseAllowedOrigins(this.origins));
    },

    async clearCache(shellStore: ShellStore): Promise<void> {
      await useChangelogsStore().clearCache(shellStore);
      this.cache = await useChangelogsStore().cacheUsage(shellStore);
    },
  },
});
