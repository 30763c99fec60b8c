/** `--limit` names the engine knows: the archive reader's, ACGP's and TG's rule budget. */
import { ACGP_LIMITS } from '../kinds/acgp/limits.js';
import { TG_LIMITS } from '../kinds/tg/limits.js';
import { LIMIT_NAMES, ZIP_WORKERS_LIMIT } from '../zip/limits.js';

export const KNOWN_LIMITS: readonly string[] = [...LIMIT_NAMES, ZIP_WORKERS_LIMIT, ...Object.keys(ACGP_LIMITS), ...Object.keys(TG_LIMITS)];
