import { GithubOpenApi } from './githubOpenApi';

// The validator is what makes the fake GitHub strict: check that it really refuses what GitHub would.
describe('GithubOpenApi', () => {
  const api = GithubOpenApi.load();
  const q = (s = '') => new URLSearchParams(s);

  it('identifies operations and decodes parameters (slashes in a ref are one parameter)', () => {
    const m = api.match(
      'GET',
      '/repos/acme/gitops/git/ref/heads%2Finfrared%2Fx',
      q(),
      undefined,
    );
    expect(m).toMatchObject({
      operationId: 'git/get-ref',
      params: { ref: 'heads/infrared/x' },
      violations: [],
    });
    const merge = api.match('PUT', '/repos/acme/gitops/pulls/3/merge', q(), {
      merge_method: 'squash',
      sha: 'abc',
    });
    expect(merge).toMatchObject({ operationId: 'pulls/merge', violations: [] });
  });

  it('refuses a path the description does not have', () => {
    expect(
      api.match('GET', '/repos/acme/gitops/pull-requests', q(), undefined),
    ).toBeUndefined();
    expect(api.match('POST', '/repos/acme/gitops', q(), {})).toBeUndefined();
  });

  it('refuses bad bodies', () => {
    const bad = (method: string, path: string, body: unknown) =>
      api.match(method, path, q(), body)!.violations;
    expect(
      bad('PUT', '/repos/a/b/pulls/1/merge', { merge_method: 'fast-forward' }),
    ).toEqual([
      expect.stringMatching(
        /merge_method must be equal to one of the allowed values/,
      ),
    ]);
    expect(
      bad('POST', '/repos/a/b/git/trees', {
        tree: [{ path: 'x', mode: '644' }],
      })[0],
    ).toMatch(/mode/);
    expect(
      bad('PATCH', '/repos/a/b/git/refs/heads%2Fx', { force: true })[0],
    ).toMatch(/required property 'sha'/);
    expect(bad('POST', '/repos/a/b/pulls', { title: 't' })[0]).toMatch(
      /required property 'head'/,
    );
    expect(bad('GET', '/repos/a/b', { unexpected: true })[0]).toMatch(
      /takes no request body/,
    );
    expect(bad('POST', '/repos/a/b/git/commits', undefined)[0]).toMatch(
      /request body required/,
    );
  });

  it('refuses bad or unknown query and path parameters', () => {
    expect(
      api.match('GET', '/repos/a/b/pulls', q('state=merged'), undefined)!
        .violations[0],
    ).toMatch(/state/);
    expect(
      api.match('GET', '/repos/a/b/pulls', q('per_page=ten'), undefined)!
        .violations[0],
    ).toMatch(/per_page/);
    expect(
      api.match('GET', '/repos/a/b/pulls', q('colour=red'), undefined)!
        .violations,
    ).toEqual([
      'GET /repos/{owner}/{repo}/pulls: query parameter colour is not in the description',
    ]);
    expect(
      api.match('GET', '/repos/a/b/pulls/abc', q(), undefined)!.violations[0],
    ).toMatch(/pull_number/);
  });
});
