// The ManagedOSChangelog type of elemental-operator PR #891 (draft): api/v1beta1/
// managedoschangelog_types.go. Registered only when the emulator serves that protocol.

import { JsonObject } from '../core/json';
import { ELEMENTAL_GROUP, ResourceType } from '../kube/resource-types';

export const CHANGELOG_TYPE_ID = 'elemental.cattle.io.managedoschangelog';

const condition: JsonObject = {
  type:       'object',
  required:   ['type', 'status'],
  properties: {
    type:               { type: 'string' },
    status:             { type: 'string', enum: ['True', 'False', 'Unknown'] },
    reason:             { type: 'string' },
    message:            { type: 'string' },
    lastTransitionTime: { type: 'string', format: 'date-time' },
    observedGeneration: { type: 'integer' },
  },
};

/** The openAPIV3Schema controller-gen would make of the draft's types (spec defaults and the state enum). */
const SCHEMA: JsonObject = {
  type:       'object',
  properties: {
    apiVersion: { type: 'string' },
    kind:       { type: 'string' },
    metadata:   { type: 'object' },
    spec:       {
      type:       'object',
      required:   ['channelRef'],
      properties: {
        channelRef: {
          type:       'object',
          properties: {
            apiVersion: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string' }, namespace: { type: 'string' }, uid: { type: 'string' },
          },
        },
        osVersion:           { type: 'string' },
        cleanupAfterMinutes: {
          type: 'integer', format: 'int32', default: 60
        },
        refresh: { type: 'boolean' },
      },
    },
    status: {
      type:       'object',
      properties: {
        conditions:   { type: 'array', items: condition },
        changelogURL: { type: 'string' },
        state:        { type: 'string', enum: ['Initialized', 'Started', 'Completed', 'Failed', 'NotStarted'] },
      },
    },
  },
};

export function changelogResourceType(): ResourceType {
  return {
    id:                CHANGELOG_TYPE_ID,
    group:             ELEMENTAL_GROUP,
    version:           'v1beta1',
    kind:              'ManagedOSChangelog',
    plural:            'managedoschangelogs',
    namespaced:        true,
    statusSubresource: true,
    openApiSchema:     SCHEMA,
    columns:           [
      {
        name: 'Name', field: '$.metadata.name', type: 'string', format: 'name'
      },
      {
        name: 'Age', field: '$.metadata.creationTimestamp', type: 'date'
      },
    ],
  };
}
