/* global beforeAll */
import { mount } from '@vue/test-utils';
import { PackageDiffRow } from '../../../domain';
import PackageDiffTable, { ROW_PX } from '../PackageDiffTable.vue';
import { installResizeObserver, mountGlobals } from '../../common/__tests__/helpers';

const rows: PackageDiffRow[] = Array.from({ length: 5000 }, (_, i) => ({
  key: String(i), change: i % 2 ? 'upgraded' : 'added', old: i % 2 ? `pkg-${ i }.x86_64  1-1` : '', new: `pkg-${ i }.x86_64  2-1`
}));

function mountTable() {
  return mount(PackageDiffTable, {
    props: {
      rows, oldLabel: 'old-image', newLabel: 'new-image'
    },
    global: mountGlobals(),
  });
}

beforeAll(installResizeObserver);

describe('PackageDiffTable', () => {
  it('draws a screen of the 5,000 rows and tells assistive technology their number and place', () => {
    const wrapper = mountTable();
    const table = wrapper.find('[role="table"]');
    const drawn = wrapper.findAll('[data-testid="package-row"]');

    expect(table.attributes('aria-rowcount')).toBe('5001');
    expect(wrapper.findAll('[role="columnheader"]').map((cell) => cell.text())).toEqual(['osUpgrades.compare.packageRows.change', 'old-image', 'new-image']);
    expect(drawn.length).toBeGreaterThan(10);
    expect(drawn.length).toBeLessThan(40);
    expect(drawn[1].find('[data-testid="package-row-old"]').text()).toBe('pkg-1.x86_64  1-1');
    expect(drawn.map((row) => row.attributes('aria-rowindex'))).toEqual(drawn.map((_, i) => String(i + 2)));
  });

  it('draws the rows scrolled to, from the keyboard-focusable box', async() => {
    const wrapper = mountTable();
    const box = wrapper.find('[data-testid="package-rows"]');

    expect(box.attributes('tabindex')).toBe('0');
    (box.element as HTMLElement).scrollTop = 4000 * ROW_PX;
    await box.trigger('scroll');
    const drawn = wrapper.findAll('[data-testid="package-row"]');
    const indexes = drawn.map((row) => Number(row.attributes('aria-rowindex')) - 2);

    expect(indexes).toContain(4000);
    expect(drawn.length).toBeLessThan(40);
    expect(drawn.find((row) => row.attributes('aria-rowindex') === '4002')?.text()).toContain('pkg-4000.x86_64  2-1');
  });
});
