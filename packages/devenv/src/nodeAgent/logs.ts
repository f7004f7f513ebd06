/**
 * Container logs the way the kubelet keeps them (CRI format: one line per entry,
 * `<RFC3339Nano time> <stdout|stderr> F <text>`) and serves them at
 * /containerLogs/<namespace>/<pod>/<container> (tailLines, limitBytes, timestamps, sinceSeconds,
 * follow), which the API server proxies for `kubectl logs` and pods/log.
 */
import fs from 'node:fs';
import type { Readable } from 'node:stream';

export interface LogEntry {
  time: string;
  stream: 'stdout' | 'stderr';
  text: string;
}

/** Writes a process's stdout and stderr as CRI log lines, splitting on newlines. */
export class LogWriter {
  private readonly partial: Record<string, string> = { stdout: '', stderr: '' };
  private readonly fd: number;

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'a');
  }

  attach(stream: Readable, name: 'stdout' | 'stderr'): void {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => this.write(name, chunk));
  }

  write(name: 'stdout' | 'stderr', chunk: string): void {
    const text = this.partial[name] + chunk;
    const lines = text.split('\n');
    this.partial[name] = lines.pop() ?? '';
    for (const line of lines) this.line(name, line);
  }

  private line(name: string, text: string) {
    fs.writeSync(this.fd, `${new Date().toISOString()} ${name} F ${text}\n`);
  }

  close(): void {
    for (const name of ['stdout', 'stderr'] as const) {
      if (this.partial[name]) this.line(name, this.partial[name]);
      this.partial[name] = '';
    }
    fs.closeSync(this.fd);
  }
}

/** Parses CRI log lines. */
export function parseLog(text: string): LogEntry[] {
  const out: LogEntry[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\S+) (stdout|stderr) [FP] (.*)$/.exec(line);
    if (m)
      out.push({ time: m[1], stream: m[2] as LogEntry['stream'], text: m[3] });
  }
  return out;
}

export interface LogOptions {
  tailLines?: number;
  limitBytes?: number;
  timestamps?: boolean;
  /** Only entries at or after this time. */
  since?: Date;
}

/** The log as `kubectl logs` shows it, with the kubelet's options. */
export function renderLog(
  entries: readonly LogEntry[],
  options: LogOptions = {},
): string {
  let list = entries;
  if (options.since) {
    const since = options.since.getTime();
    list = list.filter(e => Date.parse(e.time) >= since);
  }
  if (options.tailLines !== undefined && options.tailLines >= 0) {
    list = options.tailLines === 0 ? [] : list.slice(-options.tailLines);
  }
  let text = list
    .map(e => `${options.timestamps ? `${e.time} ` : ''}${e.text}\n`)
    .join('');
  if (options.limitBytes !== undefined && options.limitBytes >= 0) {
    text = Buffer.from(text).subarray(0, options.limitBytes).toString('utf8');
  }
  return text;
}

/**
 * The termination message of FallbackToLogsOnError: the last 80 lines of the log, at most 2048
 * bytes (the kubelet's limits).
 */
export function fallbackMessage(entries: readonly LogEntry[]): string {
  const text = entries
    .slice(-80)
    .map(e => `${e.text}\n`)
    .join('');
  const bytes = Buffer.from(text);
  return bytes.length <= 2048
    ? text
    : bytes.subarray(bytes.length - 2048).toString('utf8');
}
