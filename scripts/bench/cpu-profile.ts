/**
 * What a CPU profile (DevTools `Profiler.stop`) spent its time on: the functions with the most
 * self time, with their script, so the README can name what bounds a page.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface CpuSummary {
  totalMs: number;
  /** Milliseconds the main thread had nothing to run. */
  idleMs: number;
  /** Garbage collection, layout, style and other native work the sampler cannot attribute. */
  programMs: number;
  gcMs: number;
  top: { name: string; selfMs: number }[];
}

function frameName(node: ProfileNode): string {
  const file = node.callFrame.url.split('/').pop() || '';

  return `${ node.callFrame.functionName || '(anonymous)' }${ file ? ` ${ file }:${ node.callFrame.lineNumber + 1 }` : '' }`;
}

export function summarizeProfile(profile: CpuProfile, topCount = 12): CpuSummary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let totalUs = 0;

  profile.samples.forEach((id, i) => {
    const us = Math.max(0, profile.timeDeltas[i] ?? 0);
    const node = nodes.get(id);

    totalUs += us;
    if (node) {
      const name = frameName(node);

      self.set(name, (self.get(name) ?? 0) + us);
    }
  });
  const ms = (name: string) => (self.get(name) ?? 0) / 1000;

  return {
    totalMs:   totalUs / 1000,
    idleMs:    ms('(idle)'),
    programMs: ms('(program)'),
    gcMs:      ms('(garbage collector)'),
    top:       [...self.entries()].filter(([name]) => !/^\((idle|program|root|garbage collector)\)/.test(name))
      .sort((a, b) => b[1] - a[1]).slice(0, topCount).map(([name, us]) => ({ name, selfMs: us / 1000 })),
  };
}
