// Rule "Node labels of an image": the labels Elemental gives a node that boots an image, and
// whether its kubelet can start with them.
// - rancher/elemental framework/files/usr/sbin/elemental-populate-node-labels (a oneshot unit at
//   every boot) reads IMAGE and IMAGE_TAG of /etc/os-release and writes node-label+
//   `elemental.cattle.io/image=<IMAGE with / and : as ->`, `elemental.cattle.io/tag=<IMAGE_TAG>`
//   and `plan.upgrade.cattle.io/os-upgrader=<the same image value>` into the RKE2/K3s config; it
//   does not shorten them. IMAGE is `<registry>/<repository>:<tag>` of the image as it was built
//   (rancher/elemental .obs/dockerfile/*/Dockerfile), which is the reference a channel names.
// - The kubelet gets them as --node-labels and refuses to start when one is not a valid label value
//   (kubernetes cmd/kubelet/app/options/options.go ValidateKubeletFlags; k8s.io/apimachinery
//   pkg/util/validation IsValidLabelValue: at most 63 characters): the host runs the image, but its
//   node stops posting status and never rejoins the cluster.
// Only a `repository:tag` reference says what IMAGE is: a digest or a tagless reference is not judged.
import { ELEMENTAL_TAG_LABEL, PLAN_LABEL_PREFIX } from './keys';
import { imageParts, ImageParts } from './image-tag';
import { labelValueProblem } from './input-rules';
import { Reason } from './types';

export const ELEMENTAL_IMAGE_LABEL = 'elemental.cattle.io/image';
const OS_UPGRADER_LABEL = `${ PLAN_LABEL_PREFIX }os-upgrader`;

/**
 * `repository:tag` → its parts, split as the operator splits it (imageParts); undefined for a digest
 * or a reference without a tag of its own (imageParts would say `latest`, which no os-release says).
 */
function explicitTag(image: string): ImageParts | undefined {
  const parts = imageParts(image);

  return image.includes('@') || `${ parts.repo }:${ parts.tag }` !== image ? undefined : parts;
}

/** The labels a node that boots `image` is given; undefined when the reference does not say (digest, no tag). */
export function populatedNodeLabels(image: string): Record<string, string> | undefined {
  const reference = explicitTag(image.trim());

  if (!reference) {
    return undefined;
  }
  const value = `${ reference.repo }:${ reference.tag }`.replace(/[/:]/g, '-');

  return {
    [ELEMENTAL_IMAGE_LABEL]: value, [ELEMENTAL_TAG_LABEL]: reference.tag, [OS_UPGRADER_LABEL]: value
  };
}

export interface NodeLabelProblem {
  key: string;
  value: string;
  reason: Reason;
}

/** The labels of `image` a kubelet refuses, each with why; empty when they all fit or the reference does not say. */
export function nodeLabelProblems(image: string): NodeLabelProblem[] {
  return Object.entries(populatedNodeLabels(image) ?? {}).flatMap(([key, value]) => {
    const reason = labelValueProblem(value);

    return reason ? [{
      key, value, reason
    }] : [];
  });
}
