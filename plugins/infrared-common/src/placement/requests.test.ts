import {
  MAX_ALLOWLIST_CLUSTERS,
  validateAllowlistRequest,
  validateSetZoneClusterRequest,
} from './requests';

const fields = (v: ReturnType<typeof validateAllowlistRequest>) =>
  'errors' in v ? v.errors.map(e => e.field) : [];
const messages = (v: { errors?: Array<{ message: string }> } | object) =>
  'errors' in v ? (v.errors ?? []).map(e => e.message).join(' | ') : '';

describe('validateAllowlistRequest', () => {
  it('accepts a list of cluster names, and an empty one', () => {
    expect(validateAllowlistRequest({ clusters: ['edge-demo', 'b'] })).toEqual({
      value: { clusters: ['edge-demo', 'b'] },
    });
    expect(validateAllowlistRequest({ clusters: [] })).toEqual({
      value: { clusters: [] },
    });
  });

  it.each<[string, unknown, string[], RegExp]>([
    ['not an object', ['edge'], ['body'], /JSON object \{"clusters"/],
    ['null', null, ['body'], /JSON object/],
    ['missing clusters', {}, ['clusters'], /clusters is required/],
    [
      'clusters not an array',
      { clusters: 'edge' },
      ['clusters'],
      /must be an array/,
    ],
    [
      'an unknown field',
      { clusters: [], extra: 1 },
      ['extra'],
      /unknown field "extra"/,
    ],
    ['a non-string', { clusters: [3] }, ['clusters[0]'], /must be a string/],
    [
      'an invalid name',
      { clusters: ['ok', 'Bad_Name'] },
      ['clusters[1]'],
      /lowercase/,
    ],
    ['too long', { clusters: ['x'.repeat(43)] }, ['clusters[0]'], /at most 42/],
    [
      'a duplicate',
      { clusters: ['a', 'b', 'a'] },
      ['clusters[2]'],
      /clusters\[2\] repeats "a" \(already clusters\[0\]\)/,
    ],
  ])('%s', (_name, body, expectedFields, message) => {
    const v = validateAllowlistRequest(body);
    expect(fields(v)).toEqual(expectedFields);
    expect(messages(v)).toMatch(message);
  });

  it(`refuses more than ${MAX_ALLOWLIST_CLUSTERS} clusters, and takes exactly that many`, () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `c-${i}`);
    const over = validateAllowlistRequest({
      clusters: names(MAX_ALLOWLIST_CLUSTERS + 1),
    });
    expect(fields(over)).toEqual(['clusters']);
    expect(messages(over)).toMatch(
      /holds 1001 names; an allowlist holds at most 1000/,
    );
    expect('value' in validateAllowlistRequest({ clusters: names(1000) })).toBe(
      true,
    );
  });
});

describe('validateSetZoneClusterRequest', () => {
  it.each<[unknown, object]>([
    [{ cluster: 'edge-demo' }, { value: { cluster: 'edge-demo' } }],
    [{ cluster: '' }, { value: { cluster: '' } }],
  ])('%j', (body, expected) => {
    expect(validateSetZoneClusterRequest(body)).toEqual(expected);
  });

  it.each<[unknown, RegExp]>([
    [{}, /cluster is required/],
    [{ cluster: 'UPPER' }, /lowercase/],
    [{ cluster: null }, /cluster must be a string/],
    [{ cluster: 'a', zone: 'b' }, /unknown field "zone"/],
    ['edge', /JSON object/],
  ])('refuses %j', (body, message) => {
    expect(messages(validateSetZoneClusterRequest(body))).toMatch(message);
  });
});
