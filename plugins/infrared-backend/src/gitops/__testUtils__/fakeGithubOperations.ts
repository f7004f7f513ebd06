import type { FakeGithubServer } from './fakeGithubServer';
import { handlePullOperation } from './fakeGithubPulls';
import { notFound, Reply, unprocessable, WEB } from './fakeGithubReplies';

/** The operations the publisher uses, by operationId, answering with the fields GitHub documents. */
export function handleOperation(
  server: FakeGithubServer,
  operationId: string,
  params: Record<string, string>,
  query: Record<string, string>,
  body: any,
): Reply | undefined {
  if (operationId.startsWith('pulls/')) {
    return handlePullOperation(server, operationId, params, query, body);
  }
  const repo = server.repo;
  const full = `${repo.owner}/${repo.name}`;
  const refObject = (ref: string) => ({
    ref: `refs/${ref}`,
    node_id: 'REF',
    url: `${server.apiBaseUrl}/repos/${full}/git/refs/${ref}`,
    object: { sha: repo.refs.get(ref)!, type: 'commit', url: '' },
  });
  switch (operationId) {
    case 'repos/get':
      return {
        status: 200,
        body: {
          id: 1,
          name: repo.name,
          full_name: full,
          owner: { login: repo.owner },
          default_branch: repo.defaultBranch,
          html_url: `${WEB}/${full}`,
          permissions: { admin: false, push: server.canPush, pull: true },
        },
      };
    case 'repos/get-branch': {
      const sha = repo.refs.get(`heads/${params.branch}`);
      if (!sha) return notFound;
      const commit = repo.commits.get(sha)!;
      return {
        status: 200,
        body: {
          name: params.branch,
          commit: {
            sha,
            commit: { message: commit.message, tree: { sha: commit.tree } },
            parents: commit.parents.map(p => ({ sha: p })),
          },
          protected: repo.requiredApprovals > 0,
        },
      };
    }
    case 'git/get-tree':
      return getTree(server, params.tree_sha, query.recursive);
    case 'git/get-ref':
      return repo.refs.has(params.ref)
        ? { status: 200, body: refObject(params.ref) }
        : notFound;
    case 'repos/get-content': {
      const commit = repo.resolve(query.ref ?? repo.defaultBranch);
      const sha = commit && repo.treeOf(commit).get(params.path);
      if (!sha) return notFound;
      const content = repo.blobs.get(sha)!;
      const name = params.path.split('/').pop();
      const body64 = Buffer.from(content).toString('base64');
      return {
        status: 200,
        body: {
          type: 'file',
          encoding: 'base64',
          size: content.length,
          name,
          path: params.path,
          content: body64,
          sha,
        },
      };
    }
    case 'git/get-commit': {
      const commit = repo.commits.get(params.commit_sha);
      if (!commit) return notFound;
      const parents = commit.parents.map(sha => ({
        sha,
        url: '',
        html_url: '',
      }));
      return {
        status: 200,
        body: {
          sha: commit.sha,
          message: commit.message,
          tree: { sha: commit.tree, url: '' },
          parents,
        },
      };
    }
    case 'git/create-tree': {
      const base = body.base_tree ? repo.trees.get(body.base_tree) : new Map();
      if (!base) return unprocessable('base_tree is not a valid tree');
      const tree = new Map(base);
      for (const entry of body.tree) {
        if (entry.content !== undefined && entry.sha !== undefined)
          return unprocessable('use either sha or content');
        if (entry.content !== undefined)
          tree.set(entry.path, repo.blob(entry.content));
        else if (entry.sha === null && !tree.delete(entry.path))
          return unprocessable(`${entry.path} does not exist`);
        else if (entry.sha) tree.set(entry.path, entry.sha);
      }
      return {
        status: 201,
        body: {
          sha: repo.storeTree(tree),
          url: '',
          tree: [],
          truncated: false,
        },
      };
    }
    case 'git/create-commit': {
      if (
        !repo.trees.has(body.tree) ||
        !(body.parents ?? []).every((p: string) => repo.commits.has(p))
      ) {
        return unprocessable('tree or parent does not exist');
      }
      const sha = repo.commitTree(body.tree, body.parents ?? [], body.message);
      return {
        status: 201,
        body: { sha, message: body.message, tree: { sha: body.tree } },
      };
    }
    case 'git/create-ref': {
      const ref = String(body.ref).replace(/^refs\//, '');
      if (repo.refs.has(ref)) return unprocessable('Reference already exists');
      if (!repo.commits.has(body.sha))
        return unprocessable('Object does not exist');
      repo.refs.set(ref, body.sha);
      return { status: 201, body: refObject(ref) };
    }
    case 'git/update-ref': {
      const current = repo.refs.get(params.ref);
      if (!current) return unprocessable('Reference does not exist');
      if (!body.force && !repo.isAncestor(current, body.sha))
        return unprocessable('Update is not a fast forward');
      repo.refs.set(params.ref, body.sha);
      return { status: 200, body: refObject(params.ref) };
    }
    case 'git/delete-ref': {
      const deleted = repo.refs.get(params.ref);
      if (!repo.refs.delete(params.ref))
        return unprocessable('Reference does not exist');
      // GitHub closes the open pull requests of a deleted head branch.
      for (const p of repo.pulls)
        if (`heads/${p.head}` === params.ref && p.state === 'open')
          Object.assign(p, { state: 'closed', headSha: deleted });
      return { status: 204 };
    }
    default:
      return undefined;
  }
}

/** A tree by tree sha, commit sha or branch name; recursive lists every path, directories included. */
function getTree(
  server: FakeGithubServer,
  treeIsh: string,
  recursive?: string,
): Reply {
  const repo = server.repo;
  const commit = repo.resolve(treeIsh);
  const sha = commit ? repo.commits.get(commit)!.tree : treeIsh;
  const tree = repo.trees.get(sha);
  if (!tree) return notFound;
  const entries = new Map<string, { type: string; sha: string }>();
  for (const [path, blob] of tree) {
    const segments = path.split('/');
    if (!recursive && segments.length > 1) {
      entries.set(segments[0], { type: 'tree', sha: 'subtree' });
      continue;
    }
    for (let i = 1; i < segments.length; i++) {
      entries.set(segments.slice(0, i).join('/'), {
        type: 'tree',
        sha: 'subtree',
      });
    }
    entries.set(path, { type: 'blob', sha: blob });
  }
  const list = [...entries].map(([path, e]) => ({
    path,
    mode: e.type === 'tree' ? '040000' : '100644',
    ...e,
  }));
  return {
    status: 200,
    body: { sha, url: '', tree: list, truncated: server.truncateTrees },
  };
}
