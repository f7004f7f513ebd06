import { useCallback, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';

/**
 * The cluster whose panel is open, kept in the URL: `/clusters/<name>` opens it, so a panel has a
 * link of its own (issue 23.4), and back closes it; the page's query (search, filters, sort) stays
 * in the URL when a panel opens or closes. Where the page is not mounted under a splat
 * route (an app of the old frontend system that mounts it at an exact path), it is local state.
 */
export function useSelectedCluster(): {
  selected?: string;
  select: (name?: string) => void;
} {
  const params = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [local, setLocal] = useState<string>();
  const rest = params['*'];
  const base =
    rest === undefined
      ? undefined
      : location.pathname
          .slice(0, location.pathname.length - rest.length)
          .replace(/\/$/, '');
  const search = location.search;
  const select = useCallback(
    (name?: string) => {
      if (base === undefined) setLocal(name);
      else {
        const path = name ? `${base}/${encodeURIComponent(name)}` : base || '/';
        navigate(`${path}${search}`);
      }
    },
    [base, navigate, search],
  );
  if (rest === undefined) return { selected: local, select };
  const first = rest.split('/')[0];
  return { selected: first ? decodeURIComponent(first) : undefined, select };
}
