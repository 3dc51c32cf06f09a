import { Scenario } from '../scenario';
import { steveLists } from './steve-lists';
import { steveWrites } from './steve-writes';

export const SCENARIOS: Scenario[] = [steveLists, steveWrites];
