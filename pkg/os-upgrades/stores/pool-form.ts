// The pool form (create or edit a ManagedOSImage): what it read, what the person typed, what
// saving would write, and the save itself. Every rule is the domain's; the write is api/pools.
import { defineStore } from 'pinia';
import {
  ANY_CHANNEL, applyWithdrawals, FormProblemState, markedProblems, ProblemPlace, problemPlaces, refusalPlace, ConflictChange, conflictChanges, FieldProblem, readDraft, WriteNotice, writeNotice, WriteOutcome, fleetLocalWithTargets, FleetCluster, FleetGroup, formFromPool, formProblems, KubeObject, mayUpdate, newPoolForm,
  OSVersion, Overlap, overlappingPools, plainObject, planFormWrite, PoolForm, PoolWritePlan, PoolYamlParts, readPool, readPoolYaml, Reason, Resolution,
  resolveSelector, specFromForm, specOf, toFleetCluster, toFleetGroup, unconfirmedOverlaps, versionsForPool, YamlSyntaxError, yamlShownObject
} from '../domain';
import type { ShellStore } from '../types/shell-store';
import { errorMessage, findAll, findOne } from '../api/resources';
import { readLatestPool, SAVE_TIMEOUT_MS, writePool } from '../api/pools';
import { clearDraft, storedDraft, storeDraft } from '../api/drafts';
import { TYPE } from '../config';
import { canCreatePool, creatablePoolNamespaces } from './session';
import { useSelectorDraftStore } from './selector-draft';
import { useChannelListStore } from './channel-list';
import { pinnedVersions, useChannelVersionsStore } from './channel-versions';
import { ChannelRef } from './pool-list';

/** Why the YAML typed cannot be read into the form: where it does not parse, or a change it may not make. */
export type YamlProblem = { kind: 'syntax'; error: YamlSyntaxError } | { kind: 'refused'; reason: Reason };

export const SAVE_TIMEOUT_SECONDS = SAVE_TIMEOUT_MS / 1000;

/** The save being waited for, to cancel it (not state: an AbortController is not plain data). */
let saving: AbortController | undefined;

/**
 * Inputs that pass edits on late (the shell's KeyValue, after 500 ms): each registers how to pass
 * on what it holds now, and Save calls them first, so an edit typed just before the click is saved
 * and checked, never dropped.
 */
const pendingInputs = new Set<() => void>();

/** Registers an input's flush; returns the function that unregisters it. */
export function registerPendingInput(flush: () => void): () => void {
  pendingInputs.add(flush);

  return () => pendingInputs.delete(flush);
}

function principalOf(shell: ShellStore): string {
  return String(shell.getters['auth/principalId'] ?? '');
}

/** The form's own refusal: the selector picks another image at the click than the preview showed. */
const CHOICE_CHANGED = 'osUpgrades.poolForm.choiceChanged';

export const usePoolFormStore = defineStore('osUpgrades/poolForm', {
  state: () => ({
    loading:            true,
    loadError:          '',
    notFound:           false,
    isCreate:           true,
    /**
     * Editing: the pool's own links allow an update (domain/rights.ts). Creating: the schema
     * allows a create somewhere; `creatable` says where.
     */
    writable:           false,
    /** The namespaces where this person may create pools (Steve's checkPermissions), when the server said. */
    creatable:          undefined as string[] | undefined,
    /** The pool as read (a plain copy); undefined when creating. */
    original:           undefined as KubeObject | undefined,
    form:               newPoolForm(),
    /** The form as opened: an edit writes only the fields changed since. */
    initialForm:        newPoolForm(),
    /** The pool's pinned and previous images, read by name. */
    pinned:             [] as OSVersion[],
    /** The channel objects (a few dozen): the channel options, and every channel a selector without one chooses from. */
    channelObjects:     [] as unknown[],
    poolObjects:        [] as unknown[],
    clusterObjects:     [] as unknown[],
    groupObjects:       [] as unknown[],
    /** What the last save did, when the form stays open to say so. */
    outcome:            null as WriteOutcome | null,
    /** True from the click on Save until the answer (or the cancel). */
    saving:             false,
    /** After a 409: what the other writer changed, beside what this person's save writes. */
    conflict:           [] as ConflictChange[],
    /** The overlapping pools the person confirmed by name (saving anyway). */
    overlapConfirmed:   [] as string[],
    /** Unix seconds of the draft this form was restored from (after a new login), 0 when none. */
    restoredAt:         0,
    /** The exact image picked to approve for a pool pinned by exact version. */
    approvePick:        { channel: '', versionName: '' },
    /** The selector fields' JSON as loaded: unchanged, an edit keeps the stored selector as written. */
    loadedSelectorJson: '',
    /** Unix seconds: soak times (minAgeHours) pass while the form is open. */
    now:                Date.now() / 1000,
    /** The object the YAML view showed when it opened (what the text was edited from); null when it cannot show one. */
    yamlShown:          null as KubeObject | null,
    /** The YAML as typed; null until the person types in the YAML view. */
    yamlText:           null as string | null,
    /** Why the typed YAML is not in the form (saving is disabled while there is one). */
    yamlProblem:        null as YamlProblem | null,
    /** What the YAML edits added beside the form's fields. */
    yamlParts:          undefined as PoolYamlParts | undefined,
    /** Changes when the YAML view starts again from the form's object (the editor is drawn anew). */
    yamlKey:            0,
  }),

  getters: {
    /** What the last save did, in words. */
    notice(): WriteNotice | undefined {
      return this.outcome ? writeNotice(this.outcome, {
        subject: 'poolForm', kept: true, values: { namespace: this.form.namespace, seconds: SAVE_TIMEOUT_SECONDS }
      }) : undefined;
    },

    /** May this person write what the form shows: this pool, or a new one in this namespace? */
    canWrite(): boolean {
      if (!this.isCreate) {
        return this.writable;
      }

      return this.writable && (!this.creatable?.length || this.creatable.includes(this.namespace));
    },

    /** The shell's form mode: `view` for a person who may not write. */
    mode(): 'edit' | 'view' {
      return this.canWrite ? 'edit' : 'view';
    },

    /**
     * The channels the form works on, never every version: the selector's channel (every channel of
     * the namespace for "any channel"), the channel picked to approve from, and the pin's. Their
     * names, one a line: a string, so a settled key that keeps the channels (the selector's version,
     * say) leaves it equal, and the thousands of versions below are not gathered again.
     */
    formChannelNames(): string {
      const names = new Set<string>();
      const add = (channel: string) => channel && names.add(channel);
      const selectorChannel = useSelectorDraftStore().settled.channel;

      if (this.form.imageMode === 'selector') {
        // No channel chosen yet: the selector is incomplete, nothing to read for it.
        if (selectorChannel && selectorChannel !== ANY_CHANNEL) {
          add(selectorChannel);
        } else if (selectorChannel === ANY_CHANNEL) {
          this.channelObjects.forEach((c) => {
            const metadata = (c as { metadata?: { name?: string; namespace?: string } }).metadata;

            if (metadata?.namespace === this.namespace) {
              add(metadata.name ?? '');
            }
          });
        }
      }
      add(this.approvePick.channel);
      this.pinned.forEach((version) => version.namespace === this.namespace && add(version.channel));

      return [...names].join('\n');
    },

    formChannels(): ChannelRef[] {
      const namespace = this.namespace;

      return this.formChannelNames ? this.formChannelNames.split('\n').map((channel) => ({ namespace, channel })) : [];
    },

    /** The form channels' versions as the channel versions store has them now, and the pins. */
    versions(): OSVersion[] {
      const store = useChannelVersionsStore();
      const byKey = new Map(this.pinned.map((v) => [`${ v.namespace }/${ v.name }`, v]));

      for (const { namespace, channel } of this.formChannels) {
        store.versions(namespace, channel).forEach((v) => byKey.set(`${ v.namespace }/${ v.name }`, v));
      }

      // Withdrawn images are marked from their channel (domain/withdrawal.ts): never picked nor approved.
      return applyWithdrawals([...byKey.values()], this.channelObjects);
    },

    /** True while a channel the form needs is still being read. */
    versionsLoading(): boolean {
      const store = useChannelVersionsStore();

      return this.formChannels.some(({ namespace, channel }) => store.channelState(namespace, channel)?.state === 'loading');
    },

    /**
     * The namespace alone: the form object is replaced on every keystroke, and what depends on
     * the namespace (thousands of versions, the preview) must not be computed again for a name.
     */
    namespace(): string {
      return this.form.namespace;
    },

    namespaceVersions(): OSVersion[] {
      return versionsForPool(this.versions, this.namespace);
    },

    clusters(): FleetCluster[] {
      return this.clusterObjects.map(toFleetCluster);
    },

    groups(): FleetGroup[] {
      return this.groupObjects.map(toFleetGroup);
    },

    overlaps(): Overlap[] {
      const spec = specFromForm(this.form, this.original);

      return overlappingPools({
        name: this.form.name, namespace: this.form.namespace, targets: spec.clusterTargets as Record<string, unknown>[], nodeSelector: spec.nodeSelector
      }, this.poolObjects, this.clusters, this.groups);
    },

    fleetLocalTargets(): boolean {
      return fleetLocalWithTargets(this.form.namespace, specFromForm(this.form, this.original));
    },

    /** Node selector expressions the form cannot edit: written back as they are. */
    keptExpressions(): number {
      const nodeSelector = specOf(this.original).nodeSelector as { matchExpressions?: unknown } | undefined;

      return Array.isArray(nodeSelector?.matchExpressions) ? nodeSelector.matchExpressions.length : 0;
    },

    /** The stored selector's text when this form cannot read it (it is kept unless the fields are changed). */
    unreadableSelector(): string {
      const pool = this.original ? readPool(this.original) : undefined;

      return pool?.selectorErrors.length ? pool.selectorText ?? '' : '';
    },

    pin(): string {
      return this.original ? readPool(this.original).pin ?? '' : '';
    },

    rawImage(): string {
      return this.original ? readPool(this.original).osImage ?? '' : '';
    },

    /** What the preview shows: the settled selector resolved against this namespace's versions. */
    resolution(): Resolution | undefined {
      const selector = useSelectorDraftStore().parsed.selector;

      return this.form.imageMode === 'selector' && selector ? resolveSelector(selector, this.namespaceVersions, this.now) : undefined;
    },

    /**
     * What saving would write, recomputed on every keystroke. With a selector it plans on the
     * preview's choice alone: the selector matched it among all versions, so it picks it again,
     * without ranking thousands of versions per keystroke. Saving plans on all versions.
     */
    plan(): PoolWritePlan {
      if (this.form.imageMode === 'selector' && this.resolution) {
        const chosen = this.resolution.chosen;

        return this.planOn(this.original, chosen ? [chosen] : [], this.now);
      }

      return this.planOn(this.original, this.versions, this.now);
    },

    /** Why saving is refused now (the domain's reason), or undefined. */
    planRefusal(): Reason | undefined {
      const plan = this.plan;

      return plan.ok ? undefined : plan.reason;
    },

    /** For an existing pool: the selector would pick another image than the pin (approve after saving). */
    candidateDiffers(): string {
      const chosen = this.resolution?.chosen;

      return !this.isCreate && chosen && chosen.name !== this.pin ? chosen.name : '';
    },

    /** A new or changed selector that matches nothing cannot be saved (an unchanged one can: other edits stay possible). */
    selectorMatchesNothing(): boolean {
      const stored = this.original ? readPool(this.original).selectorText : undefined;

      return this.form.imageMode === 'selector' && !!this.resolution && !this.resolution.chosen && useSelectorDraftStore().json !== stored;
    },

    /** Every field's problem: shown beside the field, and saving is disabled while there is one. */
    fieldProblems(): FieldProblem[] {
      return [...formProblems(this.form), ...this.yamlParts?.problems ?? []];
    },

    /** The problems on the form's tabs, what the YAML view lists, and the refusal: where the form shows each. */
    problemState(): FormProblemState {
      const selectorErrors = this.form.imageMode === 'selector' && useSelectorDraftStore().current.errors.length ? ['selector'] : [];
      const overlaps = this.unconfirmedOverlaps.length ? ['target.overlap'] : [];

      return {
        formFields:   [...markedProblems(formProblems(this.form)).map((p) => p.field), ...selectorErrors, ...overlaps],
        yamlProblems: !!this.yamlParts?.problems.length,
        refusal:      this.planRefusal,
        readOnly:     !this.canWrite,
      };
    },

    /** The tabs (and the YAML view) marked as holding a problem, in order; none on a read-only form. */
    problemPlaces(): ProblemPlace[] {
      return problemPlaces(this.problemState);
    },

    /** Where the refusal's problem is: what its "Show it" opens. */
    refusalPlace(): ProblemPlace | undefined {
      return refusalPlace(this.problemState);
    },

    /** Overlaps not yet confirmed by name: two pools on one machine fight, so saving waits for each. */
    unconfirmedOverlaps(): Overlap[] {
      return unconfirmedOverlaps(this.overlaps, this.overlapConfirmed);
    },

    canSave(): boolean {
      return this.canWrite && this.plan.ok && !this.yamlProblem && !this.fieldProblems.length && !this.unconfirmedOverlaps.length && !useSelectorDraftStore().pending && !this.selectorMatchesNothing;
    },

    /** A function of the pool read, the versions and the time: what the form would write on them. */
    planOn(): (original: KubeObject | undefined, versions: readonly OSVersion[], now: number) => PoolWritePlan {
      return (original, versions, now) => {
        const draft = useSelectorDraftStore();

        return planFormWrite({
          original,
          form:              this.form,
          initialForm:       this.initialForm,
          selector:          draft.parsed.selector,
          selectorUntouched: draft.json === this.loadedSelectorJson,
          versions,
          now,
          yaml:              this.yamlParts,
        });
      };
    },
  },

  actions: {
    /** Reads what the form needs: the pool (when `name` is given), versions, and the hints' lists. */
    async load(shell: ShellStore, namespace?: string, name?: string) {
      const draft = useSelectorDraftStore();

      this.$reset();
      this.isCreate = !name;
      this.writable = this.isCreate && canCreatePool(shell);
      // Targets and other pools only feed hints (overlap warnings, pickers): they may be unreadable.
      const optional = (type: string) => findAll(shell, type).catch(() => [] as unknown[]);

      try {
        [this.channelObjects, this.poolObjects, this.clusterObjects, this.groupObjects] = await Promise.all([
          useChannelListStore().load(shell), optional(TYPE.IMAGE), optional(TYPE.FLEET_CLUSTER), optional(TYPE.FLEET_GROUP),
        ]);
        if (name) {
          const found = await findOne(shell, TYPE.IMAGE, `${ namespace }/${ name }`, { watch: false }).catch(() => undefined);

          if (!found) {
            this.notFound = true;

            return;
          }
          this.writable = mayUpdate(found);
          this.original = plainObject(found);
          this.form = formFromPool(this.original);
          this.initialForm = formFromPool(this.original);
          const view = readPool(this.original);

          draft.load(view.selector);
          this.pinned = await pinnedVersions(shell, view.namespace, [view.pin, view.previousVersion].filter((n): n is string => !!n));
        } else {
          draft.load();
          this.creatable = await creatablePoolNamespaces(shell);
          if (this.creatable?.length && !this.creatable.includes(this.form.namespace)) {
            this.setForm('namespace', this.creatable[0]);
          }
        }
        this.loadedSelectorJson = draft.json;
        this.restoreDraft(shell, name ? `${ namespace }/${ name }` : '');
        await this.loadVersions(shell);
      } catch (e) {
        this.loadError = errorMessage(e);
      } finally {
        this.loading = false;
      }
    },

    /** The entries kept when a save met 401, for this person and this pool: back into the form. */
    restoreDraft(shell: ShellStore, poolId: string) {
      const kept = readDraft(storedDraft(), principalOf(shell), poolId, Date.now() / 1000);

      if (!kept) {
        return;
      }
      const draft = useSelectorDraftStore();

      this.form = {
        ...kept.form, namespace: this.isCreate ? kept.form.namespace : this.form.namespace, name: this.isCreate ? kept.form.name : this.form.name
      };
      draft.setFields(kept.selectorFields);
      draft.settle();
      this.yamlParts = kept.yaml;
      this.restoredAt = kept.savedAt;
      clearDraft();
    },

    /** Keeps the entries aside for the login that follows a 401. */
    keepDraft(shell: ShellStore) {
      storeDraft({
        principal:      principalOf(shell),
        poolId:         this.isCreate ? '' : `${ this.form.namespace }/${ this.form.name }`,
        form:           this.form,
        selectorFields: useSelectorDraftStore().fields,
        yaml:           this.yamlParts,
        savedAt:        Math.floor(Date.now() / 1000),
      });
    },

    /** Stops waiting for the save's answer (the outcome then says whether it was written). */
    cancelSave() {
      saving?.abort();
    },

    confirmOverlap(pool: string, confirmed: boolean) {
      this.overlapConfirmed = confirmed ? [...new Set([...this.overlapConfirmed, pool])] : this.overlapConfirmed.filter((name) => name !== pool);
    },

    /** Reads the form channels not read yet (the page calls it again when they change). */
    async loadVersions(shell: ShellStore): Promise<void> {
      await useChannelVersionsStore().loadMany(shell, this.formChannels);
    },

    /**
     * The YAML view opens on what saving would write now; YAML typed before that does not parse
     * (or was refused) is shown again as typed.
     */
    openYaml() {
      if (this.yamlProblem) {
        return;
      }
      this.yamlText = null;
      this.yamlShown = this.plan.ok ? yamlShownObject(this.plan.object) : null;
      this.yamlKey++;
    },

    /** Drops the YAML typed that could not be read; the form keeps what the last readable YAML set. */
    discardYaml() {
      this.yamlProblem = null;
      this.openYaml();
    },

    /** The YAML as typed: read into the form's fields when it parses and changes nothing only Approve may change. */
    setYaml(text: string) {
      if (!this.yamlShown) {
        return;
      }
      this.yamlText = text;
      const read = readPoolYaml(text, {
        shown: this.yamlShown, original: this.original, form: this.form
      });

      if (read.kind === 'edit') {
        this.yamlProblem = null;
        this.form = read.form;
        this.yamlParts = read.parts;
      } else {
        this.yamlProblem = read;
      }
    },

    setForm<K extends keyof PoolForm>(field: K, value: PoolForm[K]) {
      this.form = { ...this.form, [field]: value };
    },

    /**
     * Saves on every version at the time of the click (`now`), and only if that picks what the
     * preview showed. Returns true when the pool was written.
     */
    async save(shell: ShellStore, now: number): Promise<boolean> {
      pendingInputs.forEach((flush) => flush());
      useSelectorDraftStore().settle();
      if (!this.canSave) {
        return false;
      }
      this.outcome = null;
      const shown = this.resolution?.chosen?.name;
      const snapshot = this.original;
      const controller = new AbortController();

      saving = controller;
      this.saving = true;
      const outcome = await writePool(shell, {
        mode:     this.isCreate ? 'create' : 'update',
        snapshot: this.original,
        signal:   controller.signal,
        plan:     (original) => {
          const plan = this.planOn(original, this.versions, now);

          // A soak time ran out since the preview was drawn: show the new choice, write nothing.
          return plan.ok && plan.resolution && plan.resolution.chosen?.name !== shown ? { ok: false, reason: { key: CHOICE_CHANGED } } : plan;
        },
      });

      saving = undefined;
      this.saving = false;
      // After a 409 that only the status caused, the form goes on from the pool as read again.
      this.original = outcome.before;
      if (outcome.kind === 'written') {
        this.conflict = [];

        return true;
      }
      if (outcome.kind === 'refused') {
        // Other refusals are shown live under the form (planRefusal) already.
        if (outcome.reason.key === CHOICE_CHANGED) {
          this.now = now;
          this.outcome = outcome;
        }

        return false;
      }
      this.outcome = outcome;
      if (outcome.kind === 'conflict') {
        const mine = this.planOn(snapshot, this.versions, now);

        this.conflict = outcome.latest ? conflictChanges(snapshot, outcome.latest, mine.ok ? mine.object : undefined) : [];
      }
      if (outcome.kind === 'unauthorized') {
        this.keepDraft(shell);
      }

      return false;
    },

    /** After a 409: save on top of the latest object, applying only what this person changed. */
    async loadLatest(shell: ShellStore) {
      const latest = await readLatestPool(shell, `${ this.form.namespace }/${ this.form.name }`);

      if (latest) {
        this.original = latest;
        this.outcome = null;
      }
    },
  },
});
