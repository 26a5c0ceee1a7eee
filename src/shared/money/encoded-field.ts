import AES from 'crypto-js/aes';
import encUtf8 from 'crypto-js/enc-utf8';
import ecb from 'crypto-js/mode-ecb';
import noPadding from 'crypto-js/pad-nopadding';
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

const blockBytes = 16;

/**
 * The plain value of an encoded field; null when it was not encoded under this key.
 * crypto-js strips PKCS7 padding without checking it, so a value encoded under another
 * key could decode to a few stray bytes; here the padding must be whole and the rest
 * UTF-8, which a wrong key practically never gives.
 */
export function decodeField(encoded: string, aesKey: string): string | null {
  if (encoded === '') return '';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return null;
  try {
    const decrypted = AES.decrypt(encoded, encUtf8.parse(aesKey), { mode: ecb, padding: noPadding });
    const bytes = new Uint8Array(decrypted.sigBytes);
    for (let index = 0; index < bytes.length; index += 1) bytes[index] = (decrypted.words[index >>> 2]! >>> (24 - (index % 4) * 8)) & 0xff;
    if (bytes.length === 0 || bytes.length % blockBytes !== 0) return null;
    const pad = bytes[bytes.length - 1]!;
    if (pad < 1 || pad > blockBytes) return null;
    for (let index = bytes.length - pad; index < bytes.length; index += 1) if (bytes[index] !== pad) return null;
    decrypted.sigBytes -= pad;
    // crypto-js's UTF-8 reading throws on bytes that are not UTF-8.
    const plain = decrypted.toString(encUtf8);
    return plain === '' ? null : plain;
  } catch {
    // Not UTF-8 under this key: not this session's value.
    return null;
  }
}

/** What a list shows of an account number: its last four characters after a mask. */
export function maskedTail(value: string, visible = 4): string {
  const tail = value.slice(-visible);
  return value.length > visible ? `****${tail}` : tail;
}
