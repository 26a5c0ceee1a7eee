import { useEffect, useState } from 'react';
import { useApp } from '../../app-context';

/**
 * An object URL for an owner-only file (`user/info`'s `avator`, `/v1/waa/file/:id`): fetched
 * with the bearer token, since `<img src>` cannot send it, and revoked when the view leaves
 * or the URL changes. Null while loading, when there is none, or when it cannot be fetched.
 */
export function useOwnImage(url: string | null | undefined): string | null {
  const { http } = useApp();
  const [objectUrl, setObjectUrl] = useState<{ url: string; objectUrl: string } | null>(null);
  useEffect(() => {
    if (!url) return;
    const controller = new AbortController();
    let made: string | null = null;
    http.fetchFile(url, controller.signal).then(
      (blob) => {
        if (controller.signal.aborted) return;
        made = URL.createObjectURL(blob);
        setObjectUrl({ url, objectUrl: made });
      },
      () => undefined,
    );
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [http, url]);
  return url && objectUrl?.url === url ? objectUrl.objectUrl : null;
}
