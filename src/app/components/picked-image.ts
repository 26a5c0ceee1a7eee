import { useEffect, useMemo } from 'react';

/** An object URL for a picked (not yet sent) file's preview, revoked when the file changes or the view goes. */
export function usePickedImage(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}
