import {
  decide,
  leaseKey,
  type DecisionInput,
  type LeaseMemory,
  type LeaseRecord,
} from './decide';

const NOW = 1_000_000;
const DURATION = 60_000;

const lease = (
  holder: string,
  over: Partial<LeaseRecord> = {},
): LeaseRecord => ({
  holder,
  renewTimeMs: NOW - 5_000,
  durationMs: DURATION,
  resourceVersion: '10',
  ...over,
});

/** What we remembered of `record`, first seen `ago` ms before now. */
const seen = (record: LeaseRecord, ago: number): LeaseMemory => ({
  key: leaseKey(record),
  seenAt: NOW - ago,
});

const input = (over: Partial<DecisionInput>): DecisionInput => ({
  me: 'prod',
  lease: undefined,
  memory: undefined,
  now: NOW,
  leaseDurationMs: DURATION,
  ...over,
});

const other = lease('trial');
const mine = lease('prod');
const renewedByReplica = lease('prod', {
  renewTimeMs: NOW - 1_000,
  resourceVersion: '11',
});

describe('decide: one installation per management cluster', () => {
  it.each<[string, Partial<DecisionInput>, object]>([
    ['no Lease: create it', {}, { action: 'create' }],
    [
      'ours, first look after a start: renew',
      { lease: mine },
      { action: 'renew' },
    ],
    [
      'ours, unchanged since our last look (our own write): renew',
      { lease: mine, memory: seen(mine, 15_000) },
      { action: 'renew' },
    ],
    [
      'ours, renewed by a replica of this installation since our last look: hold, no write',
      { lease: renewedByReplica, memory: seen(mine, 15_000) },
      { action: 'hold' },
    ],
    [
      'ours, even when its renewTime is long past (a restart after hours): renew',
      { lease: lease('prod', { renewTimeMs: NOW - 3_600_000 }) },
      { action: 'renew' },
    ],
    [
      'released (no holder): take it over at once',
      { lease: lease('') },
      { action: 'take-over', from: '' },
    ],
    [
      "another's, first look: refuse for a whole duration",
      { lease: other },
      { action: 'refuse', holder: 'trial', expiresInMs: DURATION },
    ],
    [
      "another's, unchanged for less than its duration: refuse",
      { lease: other, memory: seen(other, 59_999) },
      { action: 'refuse', holder: 'trial', expiresInMs: 1 },
    ],
    [
      "another's, renewed since our last look: refuse, the wait starts again",
      {
        lease: lease('trial', { resourceVersion: '12' }),
        memory: seen(other, 59_000),
      },
      { action: 'refuse', holder: 'trial', expiresInMs: DURATION },
    ],
    [
      "another's, unchanged for its whole duration (it stopped): take over",
      { lease: other, memory: seen(other, 60_000) },
      { action: 'take-over', from: 'trial' },
    ],
    [
      "another's, its own duration counts (5 s), not ours",
      {
        lease: lease('trial', { durationMs: 5_000 }),
        memory: seen(lease('trial', { durationMs: 5_000 }), 5_000),
      },
      { action: 'take-over', from: 'trial' },
    ],
    [
      "another's without a duration: ours counts",
      {
        lease: lease('trial', { durationMs: undefined }),
        memory: seen(lease('trial', { durationMs: undefined }), 30_000),
      },
      { action: 'refuse', holder: 'trial', expiresInMs: 30_000 },
    ],
    [
      "another's, renewTime older than two durations (stopped long ago): take over at the first look",
      { lease: lease('trial', { renewTimeMs: NOW - 120_001 }) },
      { action: 'take-over', from: 'trial' },
    ],
    [
      "another's, renewTime within two durations: the holder's clock is not trusted, refuse",
      { lease: lease('trial', { renewTimeMs: NOW - 119_000 }) },
      { action: 'refuse', holder: 'trial', expiresInMs: DURATION },
    ],
    [
      "another's without a renewTime: refuse until seen unchanged for a duration",
      { lease: lease('trial', { renewTimeMs: undefined }) },
      { action: 'refuse', holder: 'trial', expiresInMs: DURATION },
    ],
  ])('%s', (_name, over, verdict) => {
    expect(decide(input(over)).verdict).toEqual(verdict);
  });

  it('remembers when it first saw a record, and forgets it when the record changes', () => {
    const first = decide(input({ lease: other, now: NOW }));
    expect(first.memory).toEqual({ key: leaseKey(other), seenAt: NOW });
    const later = decide(
      input({ lease: other, memory: first.memory, now: NOW + 10_000 }),
    );
    expect(later.memory).toEqual({ key: leaseKey(other), seenAt: NOW });
    const renewed = lease('trial', { resourceVersion: '13' });
    const after = decide(
      input({ lease: renewed, memory: later.memory, now: NOW + 20_000 }),
    );
    expect(after.memory).toEqual({
      key: leaseKey(renewed),
      seenAt: NOW + 20_000,
    });
    expect(decide(input({})).memory).toBeUndefined();
  });
});
