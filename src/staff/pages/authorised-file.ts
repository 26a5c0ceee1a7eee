import { useEffect, useState } from 'react';
import { useStaff } from '../session/staff-context';

type FileState = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; objectUrl: string; type: string };

/** A blob URL for a file of the staff file route, revoked when the view leaves. */
export function useAuthorisedFile(url: string): FileState {
  const { client } = useStaff();
  const [file, setFile] = useState<FileState>({ state: 'loading' });
  useEffect(() => {
    let objectUrl: string | null = null;
    let current = true;
    client.fetchFile(url).then(
      (blob) => {
        if (!current) return;
        objectUrl = URL.createObjectURL(blob);
        setFile({ state: 'ready', objectUrl, type: blob.type });
      },
      () => current && setFile({ state: 'failed' }),
    );
    return () => {
      current = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [client, url]);
  return file;
}
