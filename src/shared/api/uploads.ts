/**
 * Uploaded images are read back only through these two GET routes (../shared/API.md
 * "Multipart calls"): the owner's, with their bearer token, and staff's, for a member who
 * reviews an item the file belongs to. Both answer the JPEG bytes the server re-encoded.
 */
export const ownFilePath = '/v1/waa/file/:id';
export const staffFilePath = '/v1/staff/file/:id';

/** The owner's URL of a stored file. */
export function ownFileUrl(fileId: string): string {
  return ownFilePath.replace(':id', encodeURIComponent(fileId));
}

/** Where each kind of upload's file parts are named in multipart calls (API.md's table). */
export const uploadPartNames = {
  depositProof: 'depositProof',
} as const;
