// The pool form's choices: the namespaces, channels, platforms, Fleet clusters and groups its
// fields offer, from what the form read (stores/pool-form.ts) and the namespace it is on.
import { defineStore } from 'pinia';
import { DEFAULT_NAMESPACE } from '../domain';
import { usePoolFormStore } from './pool-form';

export const usePoolFormOptionsStore = defineStore('osUpgrades/poolFormOptions', {
  getters: {
    namespaceOptions(): string[] {
      const form = usePoolFormStore();

      if (form.isCreate && form.creatable?.length) {
        return form.creatable;
      }
      const names = new Set<string>([DEFAULT_NAMESPACE, form.form.namespace]);

      [...form.versions.map((v) => v.namespace), ...form.clusters.map((c) => c.namespace)].forEach((ns) => ns && names.add(ns));

      return [...names].filter(Boolean).sort();
    },

    /** A namespace may be typed in unless the server listed where this person may create. */
    namespaceTaggable(): boolean {
      const form = usePoolFormStore();

      return !form.creatable?.length;
    },

    channels(): string[] {
      const form = usePoolFormStore();

      const names = new Set(form.namespaceVersions.filter((v) => v.type === 'container' && v.channel).map((v) => v.channel));

      form.channelObjects.forEach((c) => {
        const metadata = (c as { metadata?: { name?: string; namespace?: string } }).metadata;

        if (metadata?.namespace === form.namespace && metadata.name) {
          names.add(metadata.name);
        }
      });

      return [...names].sort();
    },

    platforms(): string[] {
      const form = usePoolFormStore();

      return [...new Set(form.namespaceVersions.flatMap((v) => v.platforms))].sort();
    },

    clusterNames(): string[] {
      const form = usePoolFormStore();

      return form.clusters.filter((c) => c.namespace === form.namespace).map((c) => c.name).sort();
    },

    groupNames(): string[] {
      const form = usePoolFormStore();

      return form.groups.filter((g) => g.namespace === form.namespace).map((g) => g.name).sort();
    },
  },
});
