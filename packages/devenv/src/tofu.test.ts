import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureTofu, tofuCacheDir } from './tofu';

describe('ensureTofu', () => {
  const saved = { ...process.env };
  let cache: string;
  beforeEach(() => {
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'tofu-cache-'));
    process.env.XDG_CACHE_HOME = cache;
    delete process.env.INFRARED_TOFU;
  });
  afterEach(() => {
    process.env = { ...saved };
    fs.rmSync(cache, { recursive: true, force: true });
  });

  it('fails at once, saying what to install, when tofu must be built and Go is missing', () => {
    process.env.PATH = path.join(cache, 'no-go-here');
    expect(() => ensureTofu()).toThrow(
      /tofu is not built and Go is not installed\. Install Go >= 1\.26 .* or set INFRARED_TOFU to a tofu binary/,
    );
  });

  it('takes the cached binary, or INFRARED_TOFU', () => {
    const bin = path.join(tofuCacheDir(), 'bin', 'tofu');
    fs.mkdirSync(path.dirname(bin), { recursive: true });
    fs.writeFileSync(bin, '#!/bin/sh\n', { mode: 0o755 });
    expect(ensureTofu()).toEqual({ bin });
    process.env.INFRARED_TOFU = path.join(cache, 'nope');
    expect(() => ensureTofu()).toThrow(
      /INFRARED_TOFU=.* is not an executable file/,
    );
    process.env.INFRARED_TOFU = bin;
    expect(ensureTofu()).toEqual({ bin });
  });
});
