// What the shell's management store knows of the Elemental operator: the schemas it loaded at
// login, whether this person may install apps, and the chart's Metadata (domain/operator-install.ts).
import type { ShellStore } from '../types/shell-store';
import { CHANGELOG_RESOURCE_TYPE, OPERATOR_METADATA, OPERATOR_TYPES } from '../domain';
import { canCreate, findOne } from './resources';
import { hasChangelogResources } from './changelog-resources';

/** Rancher's Apps (catalog.cattle.io App): who may create one may install a chart. */
const APP_TYPE = 'catalog.cattle.io.app';

function hasSchema(store: ShellStore, type: string): boolean {
  const getter = store.getters['management/schemaFor'] as ((type: string) => unknown) | undefined;

  return !!getter?.(type);
}

export interface OperatorReading {
  /** The operator's types that have a schema. */
  schemaIds: string[];
  mayInstall: boolean;
  /** The Metadata object, undefined when it cannot be read (none, or no right to it). */
  metadata: unknown;
  changelogServed: boolean;
}

export async function readOperator(store: ShellStore): Promise<OperatorReading> {
  const schemaIds = [...OPERATOR_TYPES, OPERATOR_METADATA.type, CHANGELOG_RESOURCE_TYPE].filter((type) => hasSchema(store, type));
  const metadata = schemaIds.includes(OPERATOR_METADATA.type) ? await findOne(store, OPERATOR_METADATA.type, OPERATOR_METADATA.id).catch(() => undefined) : undefined;

  return {
    schemaIds, mayInstall: canCreate(store, APP_TYPE), metadata, changelogServed: hasChangelogResources(store)
  };
}
