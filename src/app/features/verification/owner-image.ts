import { useEffect, useState } from 'react';
import { useApp } from '../../app-context';
import { sessionSignal } from '../../engine/signals';

/**
 * An image the customer uploaded earlier, read back from the owner's file route
 * (`GET {apiRoot}/v1/waa/file/{id}` with the bearer token: never a public URL) as an object
 * URL for an <img>, revoked when the URL changes or the view goes. Null while loading or
 * when it cannot be read (the picker then says only that an image is kept).
 */
export function useOwnerImage(url: string | null): string | null {
  const { config } = useApp();
  const [objectUrl, setObjectUrl] = useState<{ source: string; url: string } | null>(null);

  useEffect(() => {
    if (!url) return;
    const controller = new AbortController();
    let made: string | null = null;
    const token = sessionSignal.peek().token;
    fetch(`${config.apiRoot}${url}`, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) return;
        made = URL.createObjectURL(await response.blob());
        setObjectUrl({ source: url, url: made });
      })
      .catch(() => undefined);
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [config.apiRoot, url]);

  return objectUrl && objectUrl.source === url ? objectUrl.url : null;
}
