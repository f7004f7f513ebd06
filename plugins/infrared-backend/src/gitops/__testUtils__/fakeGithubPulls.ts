import type { FakeGithubServer } from './fakeGithubServer';
import { FakePull } from './fakeGithubRepo';
import { notFound, Reply, unprocessable, WEB } from './fakeGithubReplies';

/** pulls/* operations: one open pull request per head and base, merge with GitHub's answers. */
export function handlePullOperation(
  server: FakeGithubServer,
  operationId: string,
  params: Record<string, string>,
  query: Record<string, string>,
  body: any,
): Reply | undefined {
  const repo = server.repo;
  const full = `${repo.owner}/${repo.name}`;
  // GitHub's mergeability: `dirty` when it conflicts, `blocked` when branch protection refuses it.
  const mergeability = (p: FakePull) => {
    if (p.state !== 'open')
      return { mergeable: null, mergeable_state: 'unknown' };
    if (repo.conflicts(p).length)
      return { mergeable: false, mergeable_state: 'dirty' };
    return {
      mergeable: true,
      mergeable_state: repo.missingApprovals(p) ? 'blocked' : 'clean',
    };
  };
  const pullObject = (p: FakePull) => ({
    id: p.number,
    number: p.number,
    state: p.state,
    title: p.title,
    body: p.body,
    merged: p.merged,
    merge_commit_sha: p.mergeCommit ?? null,
    ...mergeability(p),
    html_url: `${WEB}/${full}/pull/${p.number}`,
    head: {
      ref: p.head,
      sha: p.headSha ?? repo.refs.get(`heads/${p.head}`) ?? '',
      label: `${repo.owner}:${p.head}`,
    },
    base: { ref: p.base, sha: repo.refs.get(`heads/${p.base}`)! },
  });
  const pull = () =>
    repo.pulls.find(p => p.number === Number(params.pull_number));

  switch (operationId) {
    case 'pulls/list': {
      const matches = repo.pulls.filter(
        p =>
          (query.state ?? 'open') === p.state &&
          (!query.head || query.head === `${repo.owner}:${p.head}`) &&
          (!query.base || query.base === p.base),
      );
      return { status: 200, body: matches.map(pullObject) };
    }
    case 'pulls/create': {
      if (!repo.refs.has(`heads/${body.head}`))
        return unprocessable(`head ${body.head} does not exist`);
      if (
        repo.pulls.some(
          p =>
            p.head === body.head && p.base === body.base && p.state === 'open',
        )
      ) {
        return unprocessable(
          `A pull request already exists for ${repo.owner}:${body.head}.`,
        );
      }
      const created: FakePull = {
        number: repo.pulls.length + 1,
        head: body.head,
        base: body.base,
        title: body.title,
        body: body.body ?? '',
        state: 'open',
        merged: false,
      };
      repo.pulls.push(created);
      return { status: 201, body: pullObject(created) };
    }
    case 'pulls/get':
      return pull() ? { status: 200, body: pullObject(pull()!) } : notFound;
    case 'pulls/update': {
      const p = pull();
      if (!p) return notFound;
      Object.assign(
        p,
        body.title === undefined ? {} : { title: body.title },
        body.body === undefined ? {} : { body: body.body },
      );
      return { status: 200, body: pullObject(p) };
    }
    case 'pulls/merge': {
      const p = pull();
      if (!p) return notFound;
      if (p.state !== 'open')
        return {
          status: 405,
          body: { message: 'Pull Request is not mergeable' },
        };
      if (body.sha && body.sha !== repo.refs.get(`heads/${p.head}`)) {
        return {
          status: 409,
          body: {
            message:
              'Head branch was modified. Review and try the merge again.',
          },
        };
      }
      if (repo.missingApprovals(p)) {
        // GitHub's words when branch protection requires reviews.
        const n = repo.requiredApprovals;
        return {
          status: 405,
          body: {
            message: `At least ${n} approving ${
              n === 1 ? 'review is' : 'reviews are'
            } required by reviewers with write access.`,
          },
        };
      }
      server.beforeMerge?.(repo);
      if (p.state !== 'open')
        return {
          status: 405,
          body: { message: 'Pull Request is not mergeable' },
        };
      const result = repo.merge(p, body.merge_method ?? 'merge');
      if (!result.sha)
        return { status: 405, body: { message: result.conflict } };
      return {
        status: 200,
        body: {
          sha: result.sha,
          merged: true,
          message: 'Pull Request successfully merged',
        },
      };
    }
    default:
      return undefined;
  }
}
