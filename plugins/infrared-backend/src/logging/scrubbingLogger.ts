import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  scrubError,
  scrubSecrets,
} from '@infrared-clusters/plugin-infrared-common';

type Meta = Parameters<LoggerService['info']>[1];

function scrubValue(value: unknown): unknown {
  if (typeof value === 'string') return scrubSecrets(value);
  if (value instanceof Error) return scrubError(value);
  return value;
}

function scrubMeta(meta: Meta): Meta {
  if (meta instanceof Error) return scrubError(meta);
  if (!meta || typeof meta !== 'object') return meta;
  return Object.fromEntries(
    Object.entries(meta).map(([key, value]) => [key, scrubValue(value)]),
  ) as Meta;
}

/**
 * The plugin's logger with every line and its metadata passed through -common's scrubber: the
 * last guard for the error texts of Kubernetes, git and GitHub that its parts log.
 */
export function scrubbingLogger(logger: LoggerService): LoggerService {
  const wrap =
    (level: 'error' | 'warn' | 'info' | 'debug') =>
    (message: string, meta?: Meta) =>
      logger[level](scrubSecrets(message), scrubMeta(meta));
  return {
    error: wrap('error'),
    warn: wrap('warn'),
    info: wrap('info'),
    debug: wrap('debug'),
    child: meta => scrubbingLogger(logger.child(meta)),
  };
}
