import { isRecord } from '../../domain';
import { yamlText } from '../common/yaml-text';

export type DiffLineKind = 'same' | 'added' | 'removed';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

/** Line diff by longest common subsequence; the inputs are a few dozen lines of YAML. */
export function diffLines(before: string[], after: string[]): DiffLine[] {
  const rows = before.length;
  const cols = after.length;
  // common[i][j]: length of the LCS of before[i..] and after[j..]
  const common: number[][] = Array.from({ length: rows + 1 }, () => new Array<number>(cols + 1).fill(0));

  for (let i = rows - 1; i >= 0; i--) {
    for (let j = cols - 1; j >= 0; j--) {
      common[i][j] = before[i] === after[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;

  while (i < rows || j < cols) {
    if (i < rows && j < cols && before[i] === after[j]) {
      lines.push({ kind: 'same', text: before[i++] });
      j++;
    } else if (i < rows && (j >= cols || common[i + 1][j] >= common[i][j + 1])) {
      // Removals before additions, so a changed line reads "- old" then "+ new".
      lines.push({ kind: 'removed', text: before[i++] });
    } else {
      lines.push({ kind: 'added', text: after[j++] });
    }
  }

  return lines;
}

/** The part of a ManagedOSImage an approval changes: its annotations and its spec, as YAML lines. */
export function poolYamlLines(obj: unknown): string[] {
  const source = isRecord(obj) ? obj : {};
  const metadata = isRecord(source.metadata) ? source.metadata : {};
  const view = {
    metadata: { annotations: isRecord(metadata.annotations) ? metadata.annotations : {} },
    spec:     isRecord(source.spec) ? source.spec : {},
  };

  return yamlText(view).replace(/\n$/, '').split('\n');
}
