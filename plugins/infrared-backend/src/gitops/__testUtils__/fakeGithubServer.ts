import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { GithubOpenApi } from './githubOpenApi';
import { FakeGithubRepo } from './fakeGithubRepo';
import { handleOperation } from './fakeGithubOperations';
import { Reply } from './fakeGithubReplies';

export interface Fault {
  operationId: string;
  status: number;
  headers?: Record<string, string>;
  message?: string;
  /** How many requests in a row get the fault. Default 1. */
  times?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  operationId?: string;
  status: number;
  body?: unknown;
  authorization?: string;
}

const API_PREFIX = '/api/v3';

/**
 * A small stateful GitHub (GitHub Enterprise-style base path `/api/v3`) on a random local port. Every request
 * is checked against GitHub's OpenAPI description; anything it does not allow is a violation, answered 400,
 * and `violations` makes the test fail.
 */
export class FakeGithubServer {
  readonly repo = new FakeGithubRepo();
  readonly requests: RecordedRequest[] = [];
  readonly violations: string[] = [];
  readonly faults: Fault[] = [];
  /** Repositories that answer 404 (as GitHub does when missing or invisible). */
  repoExists = true;
  /** Write access of the token, as `permissions.push` of the repository. */
  canPush = true;
  /** Answer recursive tree reads as GitHub does past its 100,000 entries: truncated. */
  truncateTrees = false;
  /** Runs before a merge is done: the place to move the base branch under the pull request. */
  beforeMerge?: (repo: FakeGithubRepo) => void;
  private server?: Server;
  private readonly openApi = GithubOpenApi.load();

  constructor(readonly token: string) {}

  get apiBaseUrl(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}${API_PREFIX}`;
  }

  count(operationId: string): number {
    return this.requests.filter(r => r.operationId === operationId).length;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.handle(req).then(
        reply => {
          res.writeHead(reply.status, {
            'content-type': 'application/json',
            ...reply.headers,
          });
          res.end(
            reply.body === undefined ? undefined : JSON.stringify(reply.body),
          );
        },
        error => {
          this.violations.push(`fake GitHub crashed: ${error.stack}`);
          res.writeHead(500).end();
        },
      );
    });
    await new Promise<void>(r => this.server!.listen(0, '127.0.0.1', r));
  }

  async stop(): Promise<void> {
    await new Promise(r => this.server?.close(r));
  }

  private async handle(req: IncomingMessage): Promise<Reply> {
    const url = new URL(req.url!, 'http://fake');
    const raw = await readBody(req);
    const body = raw ? JSON.parse(raw) : undefined;
    const record: RecordedRequest = {
      method: req.method!,
      path: url.pathname,
      body,
      authorization: req.headers.authorization,
      status: 0,
    };
    this.requests.push(record);
    const reply = this.answer(req, url, body, record);
    record.status = reply.status;
    return reply;
  }

  private answer(
    req: IncomingMessage,
    url: URL,
    body: unknown,
    record: RecordedRequest,
  ): Reply {
    const where = `${req.method} ${url.pathname}${url.search}`;
    if (!url.pathname.startsWith(API_PREFIX)) {
      this.violations.push(`${where}: outside the API base path`);
      return { status: 404, body: { message: 'Not Found' } };
    }
    const match = this.openApi.match(
      req.method!,
      url.pathname.slice(API_PREFIX.length),
      url.searchParams,
      body,
    );
    if (!match) {
      this.violations.push(
        `${where}: no such operation in GitHub's OpenAPI description`,
      );
      return { status: 404, body: { message: 'Not Found' } };
    }
    record.operationId = match.operationId;
    if (match.violations.length) {
      this.violations.push(...match.violations);
      return { status: 400, body: { message: match.violations.join('; ') } };
    }
    if (req.headers.authorization !== `token ${this.token}`) {
      return { status: 401, body: { message: 'Bad credentials' } };
    }
    const fault = this.faults.find(
      f => f.operationId === match.operationId && (f.times ?? 1) > 0,
    );
    if (fault) {
      fault.times = (fault.times ?? 1) - 1;
      return {
        status: fault.status,
        headers: fault.headers,
        body: { message: fault.message ?? 'fault' },
      };
    }
    if (
      !this.repoExists ||
      match.params.owner !== this.repo.owner ||
      match.params.repo !== this.repo.name
    ) {
      return { status: 404, body: { message: 'Not Found' } };
    }
    const reply = handleOperation(
      this,
      match.operationId,
      match.params,
      match.query,
      (body ?? {}) as any,
    );
    if (!reply) {
      this.violations.push(
        `${where}: ${match.operationId} is valid but the fake does not implement it`,
      );
      return { status: 501, body: { message: 'not implemented in the fake' } };
    }
    return reply;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  let data = '';
  for await (const chunk of req) data += chunk;
  return data;
}
