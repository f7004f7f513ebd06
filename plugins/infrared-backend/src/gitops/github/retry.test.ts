import { retryDelayMs } from './retry';

const err = (status: number, headers: Record<string, string> = {}) => ({
  status,
  response: { headers },
});

describe('retryDelayMs', () => {
  const now = 1_700_000_000_000;
  it.each([
    ['502, first retry', err(502), 0, 1000],
    ['500, third retry', err(500), 2, 4000],
    ['503 with retry-after', err(503, { 'retry-after': '3' }), 0, 3000],
    ['backoff is capped', err(502), 10, 30_000],
    [
      'secondary rate limit 403 with retry-after',
      err(403, { 'retry-after': '60' }),
      0,
      60_000,
    ],
    ['429 with retry-after 0', err(429, { 'retry-after': '0' }), 0, 0],
    [
      'primary rate limit',
      err(403, {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(now / 1000 + 12),
      }),
      0,
      12_000,
    ],
    [
      'reset already passed',
      err(403, {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(now / 1000 - 5),
      }),
      0,
      1000,
    ],
    ['429 without headers', err(429), 1, 2000],
  ])('%s', (_, error, retry, expected) => {
    expect(retryDelayMs(error, retry, now)).toBe(expected);
  });

  it.each([
    ['403 permission denied', err(403, { 'x-ratelimit-remaining': '4999' })],
    ['404', err(404)],
    ['422', err(422)],
    ['409', err(409)],
    ['no status (a bug, not a fault)', new Error('boom')],
  ])('does not retry %s', (_, error) => {
    expect(retryDelayMs(error, 0, now)).toBeUndefined();
  });
});
