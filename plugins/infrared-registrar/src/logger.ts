import type { LogFields, LogLevel, RegistrarLog } from './types';

/**
 * Structured logging; Backstage's LoggerService fits as is.
 *
 * @public
 */
export interface RegistrarLogger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export function emit(logger: RegistrarLogger, entry: RegistrarLog): void {
  logger[entry.level](entry.message, entry.fields);
}

const LEVELS: Record<LogLevel, number> = {
  debug: 0,
  info: 1,
  warn: 2,
  error: 3,
};

function quote(value: string): string {
  return /^[^\s"=\\]+$/.test(value) && value !== ''
    ? value
    : JSON.stringify(value);
}

/**
 * One line in Go slog's text format: `time=… level=INFO msg="…" key=value`.
 *
 * @public
 */
export function formatSlogText(
  level: LogLevel,
  message: string,
  fields: LogFields = {},
  at: Date = new Date(),
): string {
  const parts = [
    `time=${at.toISOString()}`,
    `level=${level.toUpperCase()}`,
    `msg=${quote(message)}`,
  ];
  for (const [k, v] of Object.entries(fields))
    parts.push(`${k}=${quote(String(v))}`);
  return parts.join(' ');
}

/**
 * The CLI's logger: slog text to a stream (stdout), debug only when asked.
 *
 * @public
 */
export function slogTextLogger(
  write: (line: string) => void,
  options: { debug?: boolean } = {},
): RegistrarLogger {
  const min = options.debug ? LEVELS.debug : LEVELS.info;
  const at = (level: LogLevel) => (message: string, fields?: LogFields) => {
    if (LEVELS[level] >= min)
      write(`${formatSlogText(level, message, fields)}\n`);
  };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  };
}
