import fs from 'node:fs';
import path from 'node:path';

const FILE = path.resolve(
  __dirname,
  '../../../../../test-results/fault-recovery.jsonl',
);

/**
 * Prints how long a fault took to recover and appends it to test-results/fault-recovery.jsonl:
 * figures for the closing note, never asserted.
 */
export function recordRecovery(
  fault: string,
  figures: Record<string, number>,
): void {
  const line = JSON.stringify({ fault, ...figures });
  // eslint-disable-next-line no-console
  console.log(`fault recovery: ${line}`);
  fs.mkdirSync(path.dirname(FILE), { recursive: true });
  fs.appendFileSync(FILE, `${line}\n`);
}
