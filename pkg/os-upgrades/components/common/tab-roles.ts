/**
 * The shell's Tabbed (shell 3.0.13, components/Tabbed/index.vue) renders each tab as
 * `<li><a role="tab">` inside `<ul role="tablist">` and gives the `li` no role, which axe reports
 * as aria-required-children (the tablist owns list items), aria-required-parent (a tab outside a
 * tablist) and listitem (an `li` outside a list). The WAI-ARIA tabs pattern marks such wrappers
 * `presentation`; Tabbed has no prop for it, so it is set on its markup after each render.
 */
export function presentTabItems(root: Element | null | undefined): void {
  root?.querySelectorAll('[role="tablist"] > li:not([role])').forEach((item) => item.setAttribute('role', 'presentation'));
}
