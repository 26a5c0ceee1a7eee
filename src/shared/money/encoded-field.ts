import AES from 'crypto-js/aes';
import encUtf8 from 'crypto-js/enc-utf8';
import ecb from 'crypto-js/mode-ecb';
import pkcs7 from 'crypto-js/pad-pkcs7';

/**
 * The transport encoding of a bank card's personal fields and of saved crypto addresses
 * (../shared/API.md "encoded fields"): AES-ECB with PKCS7 padding under the session's
 * `aesKey` (its UTF-8 bytes are the key), as base64. It is obfuscation on the wire only;
 * the server decodes and stores the value sealed with its own key. One definition for the
 * app (encodes what it sends, decodes what it shows) and the server (the reverse).
 * An empty value stays empty, as the specification asks.
 */
export function encodeField(plain: string, aesKey: string): string {
  if (plain === '') return '';
  return AES.encrypt(encUtf8.parse(plain), encUtf8.parse(aesKey), { mode: ecb, padding: pkcs7 }).toString();
}

/** The plain value of an encoded field; null when it was not encoded under this key. */
export function decodeField(encoded: string, aesKey: string): string | null {
  if (encoded === '') return '';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return null;
  try {
    const plain = AES.decrypt(encoded, encUtf8.parse(aesKey), { mode: ecb, padding: pkcs7 }).toString(encUtf8);
    return plain === '' ? null : plain;
  } catch {
    // A wrong key leaves bytes that are not UTF-8 (or bad padding): not this session's value.
    return null;
  }
}

/** What a list shows of an account number: its last four characters after a mask. */
export function maskedTail(value: string, visible = 4): string {
  const tail = value.slice(-visible);
  return value.length > visible ? `****${tail}` : tail;
}
