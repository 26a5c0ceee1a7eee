import type { DataCipher } from '../../auth/data-key';
import { decodeField } from '../../../src/shared/money/encoded-field';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { AppError } from '../../http/app-error';

/**
 * The two encodings of a personal field: in from the wire (the session's `aesKey`,
 * transport obfuscation only) and into the database (sealed with the data key, AES-256-GCM),
 * and back. A row names the key that sealed it (`key_id`): a row sealed under a key this
 * server does not hold is a fault to fix by rotating, never shown as empty.
 */
export function createSealedFields(cipher: DataCipher) {
  return {
    keyId: cipher.keyId,

    /** The plain value of a field the app encoded; bad input (not encoded under this session) is refused, naming the field. */
    decodeFromClient(encoded: string, aesKey: string, field: string): string {
      const plain = decodeField(encoded, aesKey);
      if (plain === null) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, `${field} is not encoded under this session's key`);
      if (plain.length > 140) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, `${field} is longer than 140 characters`);
      return plain;
    },

    /** Sealed for storage; an empty field stays empty (the specification keeps empty values empty). */
    seal(plain: string): string {
      return plain === '' ? '' : cipher.encrypt(plain);
    },

    open(sealed: string, keyId: string): string {
      if (sealed === '') return '';
      if (keyId !== cipher.keyId) throw new Error(`a field sealed under data key ${keyId}, which this server does not hold: rotate it first`);
      const plain = cipher.decrypt(sealed);
      if (plain === null) throw new Error('a sealed field does not open under its data key (tampered)');
      return plain;
    },
  };
}
export type SealedFields = ReturnType<typeof createSealedFields>;
