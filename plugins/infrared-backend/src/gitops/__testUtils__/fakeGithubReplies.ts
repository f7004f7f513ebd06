export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** The web host of the fake (pull request and commit links). */
export const WEB = 'https://github.test';
export const notFound: Reply = { status: 404, body: { message: 'Not Found' } };
export const unprocessable = (message: string): Reply => ({
  status: 422,
  body: { message },
});
