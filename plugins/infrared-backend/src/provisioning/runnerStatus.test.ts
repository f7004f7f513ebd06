import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readRunnerStatus } from './runnerStatus';

const NOW = Date.parse('2026-12-02T02:00:00Z');

describe('readRunnerStatus: the OpenTofu runner as a local environment reports it', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runner-status-'));
    file = path.join(dir, 'prepare.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const tofu = (over: object, ageSeconds = 5) =>
    fs.writeFileSync(
      file,
      JSON.stringify({
        updatedAt: new Date(NOW - ageSeconds * 1000).toISOString(),
        items: [{ name: 'tofu', title: 'OpenTofu', ...over }],
      }),
    );

  it('is ready without the key, without the file, and when the file is not JSON', () => {
    expect(readRunnerStatus(undefined, NOW)).toEqual({ ready: true });
    expect(readRunnerStatus(file, NOW)).toEqual({ ready: true });
    fs.writeFileSync(file, '{');
    expect(readRunnerStatus(file, NOW)).toEqual({ ready: true });
  });

  it.each([
    [
      'building: minutes left from the file, less the seconds since it was written',
      { state: 'building', percent: 40, secondsLeft: 425 },
      5,
      {
        ready: false,
        message: 'OpenTofu is being prepared (about 7 min left)',
        percent: 40,
        secondsLeft: 420,
      },
    ],
    [
      'under a minute says about 1 min',
      { state: 'building', percent: 98, secondsLeft: 20 },
      5,
      {
        ready: false,
        message: 'OpenTofu is being prepared (about 1 min left)',
        percent: 98,
        secondsLeft: 15,
      },
    ],
    [
      'waiting behind nothing yet: 0 percent',
      { state: 'waiting', secondsLeft: 540 },
      0,
      {
        ready: false,
        message: 'OpenTofu is being prepared (about 9 min left)',
        percent: 0,
        secondsLeft: 540,
      },
    ],
    [
      'never 100 percent before it is ready',
      { state: 'building', percent: 100, secondsLeft: 10 },
      0,
      {
        ready: false,
        message: 'OpenTofu is being prepared (about 1 min left)',
        percent: 99,
        secondsLeft: 10,
      },
    ],
    ['ready', { state: 'ready' }, 0, { ready: true }],
  ])('%s', (_what, item, age, expected) => {
    tofu(item, age);
    expect(readRunnerStatus(file, NOW)).toEqual(expected);
  });

  it('says the build failed, and that starting the portal again retries', () => {
    tofu({
      state: 'failed',
      error: 'the build of OpenTofu failed (exit 1); see /x/prepare.log',
    });
    expect(readRunnerStatus(file, NOW)).toEqual({
      ready: false,
      message:
        'OpenTofu could not be prepared: the build of OpenTofu failed (exit 1); see /x/prepare.log. Start the portal again to retry.',
    });
  });

  it('says nothing prepares it when the file was last written over a minute ago (the build stopped)', () => {
    tofu({ state: 'building', percent: 40, secondsLeft: 400 }, 61);
    expect(readRunnerStatus(file, NOW)).toEqual({
      ready: false,
      message:
        'OpenTofu is not built, and nothing is preparing it (the background build stopped). Start the portal again to resume it.',
    });
  });
});
