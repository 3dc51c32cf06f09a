// A page shown through OperatorGate: on a Rancher without the Elemental operator the page is never
// created, so it sends none of its requests and the person sees one notice instead of their errors.
import { Component, defineComponent, h } from 'vue';

type PageModule = { default: Component };

export function gated(load: () => Promise<PageModule>): () => Promise<Component> {
  return async() => {
    const [page, gate] = await Promise.all([load(), import('../components/operator/OperatorGate.vue')]);

    return defineComponent({
      name:   `Gated${ (page.default as { name?: string }).name ?? 'Page' }`,
      render: () => h(gate.default, null, { default: () => h(page.default) }),
    });
  };
}
