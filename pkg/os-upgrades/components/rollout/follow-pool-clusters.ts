// Reads and follows the downstream clusters a pool targets while a component shows it (the
// node-rollout store); the store lets a cluster go when no shown component needs it any more.
import { defineComponent, PropType } from 'vue';
import { poolId } from '../../domain';
import { ShellStore, useNodeRolloutStore } from '../../stores/node-rollout';

/** A mixin for a component with a `pool`; `kind` names the component among the store's owners. */
export function followPoolClusters(kind: string) {
  return defineComponent({
    props: {
      pool: {
        type:     Object as PropType<Record<string, unknown>>,
        required: true,
      },
    },

    async created() {
      if (!this.rollout.shell) {
        await this.rollout.loadFleet(this.$store as unknown as ShellStore);
      }
      this.followClusters();
    },

    beforeUnmount() {
      this.rollout.release(this.owner);
    },

    computed: {
      rollout() {
        return useNodeRolloutStore();
      },

      owner(): string {
        return `${ kind }:${ poolId(this.pool) }`;
      },

      clusterIds(): string[] {
        return this.rollout.clusterIdsOf([this.pool]);
      },
    },

    watch: {
      clusterIds() {
        this.followClusters();
      },
    },

    methods: {
      followClusters() {
        this.rollout.follow(this.owner, this.clusterIds);
      },
    },
  });
}
