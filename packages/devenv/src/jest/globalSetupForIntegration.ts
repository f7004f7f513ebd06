import fs from 'node:fs';
import path from 'node:path';
import devenvGlobalSetup from './globalSetup';

function integrationTests(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return integrationTests(full);
    return /\.integration\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/**
 * Jest globalSetup for packages with both unit and integration tests: starts (or reuses, through
 * INFRARED_DEVENV_STATE) the devenv control plane only when the run includes an integration
 * test of the package, so unit-test runs stay fast.
 */
export default async function globalSetupForIntegration(
  globalConfig: { testPathPatterns?: { patterns?: string[] } },
  projectConfig: { rootDir: string },
): Promise<void> {
  const patterns = globalConfig?.testPathPatterns?.patterns ?? [];
  const files = integrationTests(projectConfig.rootDir);
  const wanted =
    patterns.length === 0
      ? files.length > 0
      : files.some(file => patterns.some(p => new RegExp(p, 'i').test(file)));
  if (wanted) await devenvGlobalSetup();
}
