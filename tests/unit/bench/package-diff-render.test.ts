// The benchmark's "ours" beside the naive diff2html render: the package diff's own render, from the
// component's creation mark to the frame that shows it (scripts/bench/package-diff-render.ts).
import { packageDiffOwnRender } from '../../../scripts/bench/package-diff-render';

function visit(packageDiff: number | undefined, created: number | undefined) {
  const milestones: Record<string, number> = packageDiff === undefined ? {} : { packageDiff };
  const marks: Record<string, number> = created === undefined ? {} : { 'os-upgrades:package-diff:created': created };

  return {
    ms: 900, domMs: 850, milestones, marks
  };
}

describe('packageDiffOwnRender', () => {
  it('times each warm visit from the package diff\'s creation to its painted frame, leaving out the navigation before it', () => {
    const largeCompare = {
      oldName: 'a', newName: 'b', span: 500, first: visit(2000, 1900), repeat: [visit(120, 100), visit(150, 110), visit(undefined, 90)]
    };

    expect(packageDiffOwnRender({ largeCompare })).toEqual([20, 40]);
  });

  it('has nothing to say of results made before the component marked its creation', () => {
    const largeCompare = {
      oldName: 'a', newName: 'b', span: 500, first: visit(2000, undefined), repeat: [visit(120, undefined)]
    };

    expect(packageDiffOwnRender({ largeCompare })).toBeUndefined();
  });
});
