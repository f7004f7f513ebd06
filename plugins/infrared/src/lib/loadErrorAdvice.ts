/** What the user can do about a failed load, by HTTP status (no status: the request never got an answer). */
export function loadErrorAdvice(error: Error & { status?: number }): string {
  switch (error.status) {
    case 401:
      return 'Your session has expired or you are not signed in: reload the page and sign in again.';
    case 403:
      return 'You may not read clusters (permission infrared.cluster.read): ask a platform admin for access.';
    case 404:
      return 'The Infrared backend plugin does not answer at /api/infrared: check that @infrared-clusters/plugin-infrared-backend is added to the backend.';
    case 503:
    case 502:
    case 504:
      return 'The backend is starting or cannot reach the management cluster: wait a moment and retry, or check the backend logs.';
    default:
      return error.status && error.status >= 500
        ? 'The backend failed: check its logs (they name the failing request), then retry.'
        : 'Check that the backend is running and reachable from your browser, then retry.';
  }
}
