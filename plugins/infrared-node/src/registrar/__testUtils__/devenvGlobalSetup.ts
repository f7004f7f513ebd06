import devenvGlobalSetup from '@internal/devenv/src/jest/globalSetup';
import fs from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '../..');

function integrationTests(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return integrationTests(full);
    return /\.integration\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/**
 * Jest globalSetup of this package: starts (or reuses, through INFRARED_DEVENV_STATE) the devenv
 * control plane only when the run includes an integration test, so unit-test runs stay fast.
 */
export default async function globalSetup(globalConfig: {
  testPathPatterns?: { patterns?: string[] };
}): Promise<void> {
  const patterns = globalConfig?.testPathPatterns?.patterns ?? [];
  const files = integrationTests(SRC);
  const wanted =
    patterns.length === 0
      ? files.length > 0
      : files.some(file => patterns.some(p => new RegExp(p, 'i').test(file)));
  if (wanted) await devenvGlobalSetup();
}
