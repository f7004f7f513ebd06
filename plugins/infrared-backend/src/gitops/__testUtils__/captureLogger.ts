import { LoggerService } from '@backstage/backend-plugin-api';

/** A LoggerService that keeps every line (message and metadata) for assertions. */
export function captureLogger(): LoggerService & {
  lines: string[];
  text(): string;
} {
  const lines: string[] = [];
  const record =
    (level: string) =>
    (message: string, meta?: Error | Record<string, unknown>) => {
      let extra = '';
      if (meta instanceof Error) extra = ` ${meta.stack ?? meta.message}`;
      else if (meta) extra = ` ${JSON.stringify(meta)}`;
      lines.push(`${level} ${message}${extra}`);
    };
  const logger = {
    lines,
    text: () => lines.join('\n'),
    error: record('error'),
    warn: record('warn'),
    info: record('info'),
    debug: record('debug'),
    child: () => logger,
  };
  return logger;
}
