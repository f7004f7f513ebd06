/*
 * The router types here and the client in -common are generated from openapi.yaml by
 * scripts/openapi-generate.js; this fails when the spec changed and they were not regenerated.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { spec } from './openapi';

// eslint-disable-next-line @backstage/no-relative-monorepo-imports
const generator = require('../../../../scripts/openapi-generate.js');

const ROOT = path.resolve(__dirname, '../../../..');
const SPEC = 'plugins/infrared-backend/src/schema/openapi.yaml';

/** A copy of the generated files and the spec in a scratch repository root. */
function scratchCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-generate-'));
  for (const file of [...generator.generatedFiles().keys(), SPEC]) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
  }
  return dir;
}

describe('the files generated from openapi.yaml', () => {
  it('are up to date, and no other file is in their folders', () => {
    expect(generator.staleFiles()).toEqual([]);
  });

  it('hold the spec the router serves and validates with, as openapi.yaml says it', () => {
    expect(spec).toEqual(parse(fs.readFileSync(path.join(ROOT, SPEC), 'utf8')));
  });

  it('are reported stale when the spec changes, and written anew', () => {
    const dir = scratchCopy();
    try {
      expect(generator.staleFiles(generator.TARGETS, dir)).toEqual([]);
      const specFile = path.join(dir, SPEC);
      fs.writeFileSync(
        specFile,
        fs
          .readFileSync(specFile, 'utf8')
          .replace('enum: [k3s, eks]', 'enum: [k3s, eks, gke]'),
      );
      fs.writeFileSync(
        path.join(
          dir,
          'plugins/infrared-common/src/schema/openapi/generated/stray.ts',
        ),
        '',
      );
      const stale = generator.staleFiles(generator.TARGETS, dir);
      expect(stale).toEqual(
        expect.arrayContaining([
          {
            file: 'plugins/infrared-backend/src/schema/openapi/generated/router.ts',
            problem: 'differs',
          },
          {
            file: 'plugins/infrared-backend/src/schema/openapi/generated/models/ClusterFlavor.model.ts',
            problem: 'differs',
          },
          {
            file: 'plugins/infrared-common/src/schema/openapi/generated/models/ClusterFlavor.model.ts',
            problem: 'differs',
          },
          {
            file: 'plugins/infrared-common/src/schema/openapi/generated/stray.ts',
            problem: 'not generated',
          },
        ]),
      );
      expect(stale).toHaveLength(4);
      generator.write(generator.TARGETS, dir);
      expect(generator.staleFiles(generator.TARGETS, dir)).toEqual([]);
      expect(
        fs.readFileSync(
          path.join(
            dir,
            'plugins/infrared-common/src/schema/openapi/generated/models/ClusterFlavor.model.ts',
          ),
          'utf8',
        ),
      ).toContain("'k3s' | 'eks' | 'gke'");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
