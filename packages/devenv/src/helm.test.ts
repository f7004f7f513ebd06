import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureHelm, helmCacheDir } from './helm';

describe('ensureHelm', () => {
  const saved = { ...process.env };
  let cache: string;
  beforeEach(() => {
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'helm-cache-'));
    process.env.XDG_CACHE_HOME = cache;
    delete process.env.INFRARED_HELM;
  });
  afterEach(() => {
    process.env = { ...saved };
    fs.rmSync(cache, { recursive: true, force: true });
  });

  it('fails at once, saying what to install, when helm must be built and Go is missing', () => {
    process.env.PATH = path.join(cache, 'no-go-here');
    expect(() => ensureHelm()).toThrow(
      /helm is not built and Go is not installed\. Install Go >= 1\.26 .* or set INFRARED_HELM to a helm binary/,
    );
  });

  it('takes the cached binary, or INFRARED_HELM', () => {
    const bin = path.join(helmCacheDir(), 'bin', 'helm');
    fs.mkdirSync(path.dirname(bin), { recursive: true });
    fs.writeFileSync(bin, '#!/bin/sh\n', { mode: 0o755 });
    expect(ensureHelm()).toEqual({ bin });
    process.env.INFRARED_HELM = path.join(cache, 'nope');
    expect(() => ensureHelm()).toThrow(
      /INFRARED_HELM=.* is not an executable file/,
    );
    process.env.INFRARED_HELM = bin;
    expect(ensureHelm()).toEqual({ bin });
  });
});
