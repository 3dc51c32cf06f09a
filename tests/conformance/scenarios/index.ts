import { Scenario } from '../scenario';
import { browserRequests } from './browser-requests';
import { downstreamReaders } from './downstream-readers';
import { downstreamRollout } from './downstream-rollout';
import { fleetBundles } from './fleet-bundles';
import { kubeControllers } from './kube-controllers';
import { kubeWrites } from './kube-writes';
import { steveChangelogs } from './steve-changelogs';
import { steveLists } from './steve-lists';
import { steveReads } from './steve-reads';
import { steveReaderUsers } from './steve-reader-users';
import { steveSchemas } from './steve-schemas';
import { steveWatch } from './steve-watch';
import { steveWatchErrors } from './steve-watch-errors';
import { steveWrites } from './steve-writes';

export const SCENARIOS: Scenario[] = [steveLists, steveWrites, steveWatch, steveSchemas, steveReads, steveWatchErrors, kubeWrites, kubeControllers, fleetBundles, steveReaderUsers, downstreamRollout, browserRequests, steveChangelogs, downstreamReaders];
